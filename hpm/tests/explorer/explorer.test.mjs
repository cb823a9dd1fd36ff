// End-to-end checks of pages written by `hpm explore`, in headless Chromium (run by
// hpm/tests/explore.rs with one JSON argument: {"single", "trace", "diff", "sampled", "labels",
// "phases", "report", "jfrRun", "runJfr", "noise", "noiseAbsolute", "jdkFrames", "out"}).
//
// single: a research-VM run of pseudojbb (call trees + quantum trace); trace: the same trace alone;
// diff: two HotSpot runs of explorer.Shift where only main → grows changes; sampled: the page a
// HotSpot run with `calls=none,sample=cpu` wrote at its exit; labels: a text trace of overloaded
// methods with long parameter lists (H2's names), some in narrow frames; phases: the page a
// HotSpot run of phases.SampledPhases wrote (alpha() between markers "alpha" and "beta", beta()
// between "beta" and "done"; stack and allocation samples, a contended monitor, a wait); jfrRun
// and runJfr: an imported JFR recording against the agent's run, in both orders; noise and
// noiseAbsolute (written with --diff absolute): two text traces where every method scaled by 0.7
// but one whose share grew; jdkFrames: SampledPhases sampled with include=* (the JDK's frames
// recorded) against the phases run (the default filter); report: a run directory with the
// bottleneck search's consult.txt. Every control is used
// and must change what is drawn: checked in the DOM and in the canvas pixels; screenshots are saved
// under `out`.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import path from 'node:path';

const cfg = JSON.parse(process.argv[2]);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let failures = 0;
const shot = (page, name) => page.screenshot({ path: path.join(cfg.out, name + '.png'), fullPage: true });

async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console ' + m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (!r.url().startsWith('file://')) problems.push('network request: ' + r.url()); });
  await page.goto('file://' + file);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  page.problems = problems;
  return page;
}

// Pixels of a canvas kept under `key`; `changed(a, b)` counts the pixels that differ.
async function snap(page, id, key) {
  await page.evaluate(([id, key]) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    (window.__snaps ||= {})[key] = { w: c.width, h: c.height, d };
  }, [id, key]);
}
async function changed(page, a, b) {
  return page.evaluate(([a, b]) => {
    const x = window.__snaps[a], y = window.__snaps[b];
    if (x.w !== y.w || x.h !== y.h) return x.w * x.h + y.w * y.h;
    let n = 0;
    for (let i = 0; i < x.d.length; i += 4) if (x.d[i] !== y.d[i] || x.d[i + 1] !== y.d[i + 1] || x.d[i + 2] !== y.d[i + 2]) n++;
    return n;
  }, [a, b]);
}
const attr = (page, sel, name) => page.$eval(sel, (e, n) => e.dataset[n], name);
const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
async function selectByText(page, sel, re) {
  const value = await page.$eval(sel, (s, src) => { const o = [...s.options].find((o) => new RegExp(src).test(o.textContent)); return o ? o.value : null; }, re.source);
  assert.ok(value !== null, `no option matching ${re} in ${sel}`);
  await page.selectOption(sel, value);
  return value;
}
// Where the text of the elements matching `sel` wraps to a new line other than right after a
// separator ('.', '$', ',', '(' or a space): "text before|text after" per such break.
async function midWordBreaks(page, sel) {
  return page.$$eval(sel, (es) => {
    const bad = [];
    for (const e of es) {
      const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      let prevTop = null, prevCh = '', line = '';
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        for (let i = 0; i < t.data.length; i++) {
          const r = document.createRange();
          r.setStart(t, i); r.setEnd(t, i + 1);
          const top = r.getBoundingClientRect().top;
          if (prevTop !== null && top > prevTop + 2) { if (!/[.$,( ]/.test(prevCh)) bad.push(line + '|' + t.data.slice(i)); line = ''; }
          line += t.data[i]; prevTop = top; prevCh = t.data[i];
        }
      }
    }
    return bad;
  });
}
// A label cut inside a parameter list has a ')' before any '(' ("engine.SessionLocal)").
const cutInsideParameters = (label) => /^[^(]*\)/.test(label) || (label.includes('(') && !/\)$|…$/.test(label));
async function check(name, fn) {
  try { await fn(); console.log('ok   ' + name); } catch (e) { failures++; console.log('FAIL ' + name + ': ' + (e.stack || e)); }
}

// ------------------------------------------------------------------ one run: tree, methods, trace
{
  const page = await open(cfg.single);
  await check('loads with the call tree, methods and trace tabs', async () => {
    const tabs = await page.$$eval('#tabs button', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(tabs, ['Call tree', 'Methods', 'Trace']);
    assert.ok(+(await attr(page, '#flame', 'drawn')) > 5);
    await shot(page, 'tree-initial');
  });
  await snap(page, 'flame', 'initial');
  await check('switching the metric redraws the flame graph', async () => {
    const before = await attr(page, '#flame', 'metric');
    await selectByText(page, '#metric', /^calls$/);
    assert.equal(await attr(page, '#flame', 'metric'), 'calls');
    assert.notEqual(before, 'calls');
    await snap(page, 'flame', 'calls');
    assert.ok((await changed(page, 'initial', 'calls')) > 100, 'pixels changed');
    await shot(page, 'tree-metric-calls');
    await page.selectOption('#metric', '0');
  });
  await check('icicle mode flips the graph', async () => {
    await page.click('#mode-icicle');
    await snap(page, 'flame', 'icicle');
    assert.ok((await changed(page, 'initial', 'icicle')) > 100);
    await shot(page, 'tree-icicle');
    await page.click('#mode-flame');
  });
  await check('search highlights matches and shows their share', async () => {
    await page.fill('#search', 'Terminal.payment');
    await page.waitForFunction(() => document.getElementById('search-msg').textContent.includes('matched'));
    const share = +(await attr(page, '#search-msg', 'share'));
    assert.ok(share > 0 && share < 1, 'share ' + share);
    assert.ok(+(await attr(page, '#flame', 'matched')) >= 1);
    await snap(page, 'flame', 'search');
    assert.ok((await changed(page, 'initial', 'search')) > 100);
    await shot(page, 'tree-search');
    await page.fill('#search', '');
    await page.waitForFunction(() => document.getElementById('search-msg').textContent === '');
  });
  await check('clicking a frame zooms into it and opens its callers and callees', async () => {
    const f = await page.evaluate(() => window.hpmExplorer.findFrame('Terminal.run'));
    assert.ok(f, 'a Terminal.run frame is drawn');
    await page.mouse.click(f.x, f.y);
    assert.equal(await attr(page, '#flame', 'zoom'), f.name);
    assert.ok(await page.$eval('#tip', (e) => e.hidden), 'the tooltip goes with the click');
    assert.ok((await page.$$('#crumbs a')).length >= 2);
    await snap(page, 'flame', 'zoom');
    assert.ok((await changed(page, 'initial', 'zoom')) > 100);
    assert.equal(await attr(page, '#xarc', 'method'), f.name);
    assert.ok(+(await attr(page, '#xarc', 'callers')) >= 1 && +(await attr(page, '#xarc', 'callees')) >= 1);
    await shot(page, 'tree-zoom-xarc');
    assert.deepEqual(await midWordBreaks(page, '#xarc h3, #xarc td.name'), [], 'names wrap after separators only');
    // Caller rows' calls add up to the method's own (the xarc invariant).
    const calls = await page.$$eval('#xarc tr', (rows) => rows.map((r) => [r.className, +r.lastChild.textContent.replace(/,/g, '')]));
    const callerSum = calls.filter(([c]) => c === 'caller').reduce((a, [, v]) => a + v, 0);
    assert.equal(callerSum, calls.find(([c]) => c === 'self')[1]);
    // Navigate to a callee.
    const callee = await page.$eval('#xarc tr.callee a', (a) => a.textContent);
    await page.click('#xarc tr.callee a');
    assert.equal(await attr(page, '#xarc', 'method'), callee);
    await page.click('#reset-zoom');
    assert.equal(await attr(page, '#flame', 'zoom'), 'all threads');
  });
  await check('the thread filter shows one thread', async () => {
    await snap(page, 'flame', 'all');
    const threads = await page.$$eval('#thread option', (os) => os.map((o) => o.textContent));
    assert.ok(threads.every((t) => !/\b1 contexts/.test(t)), threads.join());
    await selectByText(page, '#thread', /^Warehouse-1 /);
    await snap(page, 'flame', 'one');
    assert.equal(await attr(page, '#flame', 'zoom'), 'Warehouse-1');
    assert.ok((await changed(page, 'all', 'one')) > 100);
    await shot(page, 'tree-thread');
    await page.selectOption('#thread', '-1');
  });
  await check('a computed metric becomes a metric and colours the graph', async () => {
    const names = await page.$$eval('#metric option', (os) => os.map((o) => o.textContent));
    assert.ok(names.includes('cpu-time (sampled)') && names.includes('wall-time (sampled)'), names.join());
    await page.fill('#expr', 'nonsense-metric / 2');
    await page.click('#expr-add');
    assert.ok(await page.$eval('#expr-msg', (e) => e.classList.contains('error')));
    await snap(page, 'flame', 'pre-ratio');
    await page.fill('#expr', 'cpu-time / wall-time * 100');
    await page.press('#expr', 'Enter');
    assert.equal(await attr(page, '#flame', 'metric'), 'cpu-time / wall-time * 100');
    assert.match(await text(page, '#legend'), /Width: total wall-time .*Colour: cpu-time \/ wall-time \* 100/);
    await snap(page, 'flame', 'ratio');
    assert.ok((await changed(page, 'pre-ratio', 'ratio')) > 100);
    await shot(page, 'tree-computed');
    await page.selectOption('#metric', '0');
  });
  await check('the methods table sorts by any column and opens a method', async () => {
    await page.click('#tabbtn-methods');
    const rows = await page.$$eval('#methods tbody tr', (r) => r.length);
    assert.ok(rows > 5, rows + ' rows');
    const heads = await page.$$eval('#methods th', (h) => h.map((x) => x.textContent));
    assert.ok(heads.includes('cpu-time / wall-time * 100 total'), heads.join());
    const k = heads.indexOf('calls');
    await page.click(`#methods th:nth-child(${k + 1})`);
    const col = await page.$$eval(`#methods tbody td:nth-child(${k + 1})`, (c) => c.map((x) => +x.textContent.replace(/,/g, '')));
    assert.deepEqual(col, col.slice().sort((a, b) => b - a), 'sorted by calls, descending');
    await shot(page, 'methods');
    const name = await page.$eval('#methods tbody tr td', (td) => td.textContent);
    await page.click('#methods tbody tr');
    assert.equal(await attr(page, '#xarc', 'method'), name);
  });
  await check('record sets filter the trace and every plot follows', async () => {
    await page.click('#tabbtn-trace');
    const all = +(await attr(page, '#rs-stats', 'count'));
    assert.ok(all > 20, all + ' records');
    // The timeline's legend says what its colours and marks mean.
    const legend = await text(page, '#tl-legend');
    assert.match(legend, /Colour: the thread that ran/);
    assert.match(legend, /GC \(shaded\).*marker \(dashed line\).*after each GC and marker/);
    assert.ok((await page.$$('#tl-legend .swatch')).length >= 6, legend);
    assert.doesNotMatch(await text(page, '#trace-head'), /\(s\)|\b1 (records|threads|markers|GCs)\b/);
    await shot(page, 'trace-initial');
    for (const id of ['timeline', 'overtime', 'scatter']) await snap(page, id, id + '-all');
    await page.selectOption('#rs-vp', '0');
    const vp0 = +(await attr(page, '#rs-stats', 'count'));
    assert.ok(vp0 > 0 && vp0 < all, `vp 0: ${vp0} of ${all}`);
    for (const id of ['timeline', 'overtime', 'scatter']) {
      await snap(page, id, id + '-vp0');
      assert.ok((await changed(page, id + '-all', id + '-vp0')) > 20, id + ' redrawn');
    }
    await shot(page, 'trace-vp0');
    await page.selectOption('#rs-vp', '');
    await page.selectOption('#rs-kind', 'gc');
    const gc = +(await attr(page, '#rs-stats', 'count'));
    await page.selectOption('#rs-kind', 'nongc');
    assert.equal(gc + +(await attr(page, '#rs-stats', 'count')), all, 'GC and non-GC records add up');
    await page.selectOption('#rs-kind', '');
    // A marker interval (pseudojbb places app and run markers).
    const opts = await page.$$eval('#rs-interval option', (o) => o.map((x) => x.value));
    assert.ok(opts.length >= 3, opts.join());
    await page.selectOption('#rs-interval', opts[1]);
    const inInterval = +(await attr(page, '#rs-stats', 'count'));
    assert.ok(inInterval > 0 && inInterval < all);
    await page.selectOption('#rs-interval', '');
    // Records after each GC and marker are listed and can be the set.
    await page.check('#rs-after');
    const after = +(await attr(page, '#rs-stats', 'count'));
    const listed = await page.$$eval('#after tbody tr', (r) => r.filter((x) => x.children.length > 2).length);
    assert.ok(after > 0 && after <= listed, `after: ${after}, listed ${listed}`);
    await page.uncheck('#rs-after');
    // A time range dragged on the timeline.
    const box = await page.$eval('#timeline', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
    await page.mouse.move(box.x + 170 + (box.w - 180) * 0.3, box.y + 30);
    await page.mouse.down();
    await page.mouse.move(box.x + 170 + (box.w - 180) * 0.6, box.y + 30, { steps: 4 });
    await page.mouse.up();
    const ranged = +(await attr(page, '#rs-stats', 'count'));
    assert.ok(ranged > 0 && ranged < all, `dragged range: ${ranged} of ${all}`);
    assert.notEqual(await page.inputValue('#rs-from'), '');
    await shot(page, 'trace-range');
    await page.click('#rs-reset');
    assert.equal(+(await attr(page, '#rs-stats', 'count')), all);
    // Colour by a computed metric; another metric over time; another scatter axis.
    await snap(page, 'timeline', 'tl-thread');
    await selectByText(page, '#tl-color', /^cpu-time \/ real-time$/);
    await snap(page, 'timeline', 'tl-metric');
    assert.equal(await attr(page, '#tl-legend', 'colour'), 'cpu-time / real-time');
    assert.match(await text(page, '#tl-legend'), /Colour: cpu-time \/ real-time of the record, 5th to 95th percentile/);
    await shot(page, 'trace-colour-metric');
    assert.ok((await changed(page, 'tl-thread', 'tl-metric')) > 100);
    await snap(page, 'overtime', 'ot-a');
    await selectByText(page, '#ot-metric', /^task-clock$/);
    await snap(page, 'overtime', 'ot-b');
    assert.ok((await changed(page, 'ot-a', 'ot-b')) > 20);
    await snap(page, 'scatter', 'sc-a');
    await selectByText(page, '#sc-x', /^task-clock$/);
    await snap(page, 'scatter', 'sc-b');
    assert.ok((await changed(page, 'sc-a', 'sc-b')) > 20);
    assert.match(await text(page, '#sc-r'), /records, r = /);
    await page.selectOption('#tl-rows', 'thread');
    await shot(page, 'trace-threads');
  });
  await check('no console error and no network request', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ a trace directory alone
{
  const page = await open(cfg.trace);
  await check('a trace alone opens on the trace tab', async () => {
    assert.deepEqual(await page.$$eval('#tabs button', (bs) => bs.map((b) => b.textContent)), ['Trace']);
    assert.ok(+(await attr(page, '#rs-stats', 'count')) > 20);
    assert.ok(await page.$eval('#metric', (e) => e.closest('label').hidden));
    await shot(page, 'trace-only');
  });
  await check('no console error and no network request (trace alone)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ a run that sampled stacks only
{
  const page = await open(cfg.sampled);
  await check('a sampling-only run opens on its sampled tree', async () => {
    assert.ok(+(await attr(page, '#flame', 'drawn')) > 3, 'frames drawn');
    const f = await page.evaluate(() => window.hpmExplorer.findFrame('explorer.Shift.work'));
    assert.ok(f, 'explorer.Shift.work is drawn in the first view');
    await shot(page, 'sampled-initial');
  });
  await check('no console error and no network request (sampled)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ overloaded methods, long names
{
  const page = await open(cfg.labels);
  const convert = 'org.h2.value.Value.convertTo(org.h2.value.TypeInfo,org.h2.engine.CastDataProvider)';
  await check('labels are cut before the parameter list, never inside it', async () => {
    const labels = await page.evaluate(() => window.hpmExplorer.labels());
    assert.ok(labels.length >= 8, JSON.stringify(labels));
    const bad = labels.filter((l) => cutInsideParameters(l.label));
    assert.deepEqual(bad, [], 'labels cut inside a parameter list');
    // Wide frames keep the whole name; narrower ones the class's simple name, the method and the
    // parameters' simple names; narrower still, the parameters are dropped.
    assert.ok(labels.some((l) => l.label === l.name && l.name.includes('(')), JSON.stringify(labels));
    assert.ok(labels.some((l) => /^\w+\.\w+\(\w+(,\w+)+\)$/.test(l.label)), JSON.stringify(labels));
    const forms = new Set();
    for (let w = 20; w <= 700; w += 4) forms.add(await page.evaluate(([n, w]) => window.hpmExplorer.shortName(n, w), [convert, w]));
    assert.ok([...forms].every((f) => !cutInsideParameters(f)), [...forms].join(' | '));
    for (const f of [convert, 'Value.convertTo(TypeInfo,CastDataProvider)', 'Value.convertTo(…)', 'convertTo(…)']) assert.ok(forms.has(f), f + ' in ' + [...forms].join(' | '));
    await shot(page, 'labels-initial');
  });
  await check('a click hides the tooltip; the breadcrumb and side panel name the method whole', async () => {
    const f = await page.evaluate((n) => window.hpmExplorer.findFrame(n), convert);
    await page.mouse.move(f.x, f.y);
    assert.ok(!(await page.$eval('#tip', (e) => e.hidden)), 'the tooltip shows on hover');
    await page.mouse.click(f.x, f.y);
    assert.ok(await page.$eval('#tip', (e) => e.hidden), 'the tooltip goes with the click');
    assert.equal(await attr(page, '#xarc', 'method'), convert);
    const crumbs = await page.$$eval('#crumbs a', (as) => as.map((a) => a.textContent));
    assert.equal(crumbs[crumbs.length - 1], 'Value.convertTo(TypeInfo,CastDataProvider)');
    assert.deepEqual(await midWordBreaks(page, '#xarc h3, #xarc td.name'), [], 'names wrap after separators only');
    assert.ok((await page.$eval('#xarc h3', (e) => e.getClientRects().length && e.getBoundingClientRect().height)) > 20, 'the long name wraps');
    await shot(page, 'labels-zoom-xarc');
    await page.click('#reset-zoom');
  });
  await check('counts of one are singular', async () => {
    await page.fill('#search', '/^app\\.Main\\.main$/');
    await page.waitForFunction(() => document.getElementById('search-msg').textContent.includes('matched'));
    assert.match(await text(page, '#search-msg'), /\(1 context, 1 method\)$/);
    await page.fill('#search', 'convertTo');
    await page.waitForFunction(() => /contexts/.test(document.getElementById('search-msg').textContent));
    assert.match(await text(page, '#search-msg'), /\(\d+ contexts, 2 methods\)$/);
    await page.fill('#search', '');
    await page.click('#tabbtn-methods');
    assert.deepEqual(await midWordBreaks(page, '#methods td.name'), [], 'method names wrap after separators only');
    const names = await page.$$eval('#methods tbody tr td.name', (tds) => tds.map((td) => td.textContent));
    // Threads merge into the view's root, so the table holds the methods alone (as xprof.txt's).
    assert.ok(names.length === 9 && !names.includes('main_pidtid'), 'methods only, no thread row: ' + names.join());
    await page.fill('#method-filter', 'Table.getColumn');
    assert.match(await text(page, '#methods-msg'), /^1 method;/);
    await shot(page, 'labels-methods');
  });
  await check('no console error and no network request (labels)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ the diff of two runs
{
  const page = await open(cfg.diff);
  await check('the diff marks the changed context', async () => {
    assert.equal(await page.inputValue('#profile'), 'diff');
    await selectByText(page, '#metric', /^calls$/);
    // 300 calls against 600: shares by default; absolute values for this check.
    assert.equal(await attr(page, '#legend', 'diffValues'), 'share');
    await page.selectOption('#diff-values', 'absolute');
    assert.equal(await attr(page, '#legend', 'diffValues'), 'absolute');
    assert.match(await text(page, '#legend'), /change in self calls/);
    await snap(page, 'flame', 'diff');
    await shot(page, 'diff-flame');
    await page.click('#tabbtn-diff');
    const rows = await page.$$eval('#diff tbody tr', (r) => r.map((x) => ({ changed: x.classList.contains('changed'), path: x.title, cells: [...x.children].map((c) => c.textContent) })));
    const changedRows = rows.filter((r) => r.changed);
    assert.ok(changedRows.length >= 1, JSON.stringify(rows));
    assert.ok(changedRows.every((r) => r.path.includes('explorer.Shift.grows')), JSON.stringify(changedRows));
    const grows = changedRows.find((r) => r.path.endsWith('explorer.Shift.grows'));
    assert.ok(grows, 'main → grows is marked');
    assert.deepEqual(grows.cells.slice(1, 5), ['100', '400', '+300', '300.0%']);
    assert.ok(!rows.some((r) => r.path.endsWith('explorer.Shift.steady')), 'steady did not change');
    await shot(page, 'diff-table');
    // The profiles on their own draw differently from their diff.
    await page.click('#tabbtn-tree');
    await page.selectOption('#profile', '1');
    await selectByText(page, '#metric', /^calls$/);
    await snap(page, 'flame', 'after-alone');
    assert.ok((await changed(page, 'diff', 'after-alone')) > 100);
  });
  await check('no console error and no network request (diff)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ every tree of a run, phases
{
  const page = await open(cfg.phases);
  const trees = { calls: ['SampledPhases.alpha', 'byte[]'], sampled: ['SampledPhases.alpha', '[running]'], 'sampled-states': ['[running]', 'byte[]'], 'sampled-alloc': ['byte[]', 'SampledPhases.beta'], locks: ['java.lang.Object', 'SampledPhases.alpha'], waits: ['SampledPhases.waiter', 'SampledPhases.alpha'],
    // The exact calls of each phase between the program's notes (alpha, beta, done).
    'phase-1': ['hpmagent.Trace.note', 'SampledPhases.alpha'], 'phase-2': ['SampledPhases.alpha', 'SampledPhases.beta'],
    'phase-3': ['SampledPhases.beta', 'SampledPhases.alpha'], 'phase-4': ['SampledPhases.sortAll', 'SampledPhases.beta'] };
  await check('the tree selector offers every tree the run holds, each with its methods', async () => {
    const offered = await page.$$eval('#tree option', (os) => os.map((o) => o.value));
    assert.deepEqual(offered, Object.keys(trees));
    assert.ok(!(await page.$eval('#tree-box', (e) => e.hidden)));
    for (const [tree, [present, absent]] of Object.entries(trees)) {
      await page.selectOption('#tree', tree);
      assert.ok(await page.evaluate((n) => window.hpmExplorer.findFrame(n), present), tree + ' shows ' + present);
      assert.equal(await page.evaluate((n) => window.hpmExplorer.findFrame(n), absent), null, tree + ' has no ' + absent);
      await shot(page, 'tree-' + tree);
    }
    await page.selectOption('#tree', 'locks');
    await page.click('#tabbtn-methods');
    const methods = await page.$$eval('#methods tbody td.name', (tds) => tds.map((td) => td.textContent));
    assert.ok(methods.includes('java.lang.Object') && methods.includes('phases.SampledPhases.waiter'), methods.join());
    await page.click('#tabbtn-tree');
  });
  await check('the samples\' timeline selects phases and ranges, and the tree follows', async () => {
    await page.selectOption('#tree', 'sampled');
    assert.ok(!(await page.$eval('#samples-box', (e) => e.hidden)), 'a timeline for the sampled tree');
    const all = +(await attr(page, '#samples', 'samples'));
    assert.ok(all > 300, all + ' samples');
    const frame = (n) => page.evaluate((n) => window.hpmExplorer.findFrame(n), n);
    assert.ok((await frame('SampledPhases.alpha')) && (await frame('SampledPhases.beta')), 'the whole run has both phases');
    await shot(page, 'samples-whole');
    const alpha = await selectByText(page, '#phase', /^from note: alpha to note: beta$/);
    let inRange = +(await attr(page, '#samples', 'inRange'));
    assert.ok(inRange > 100 && inRange < all, `phase 1: ${inRange} of ${all}`);
    assert.ok(await frame('SampledPhases.alpha'), 'phase 1 shows alpha');
    assert.equal(await frame('SampledPhases.beta'), null, 'phase 1 does not show beta');
    await shot(page, 'samples-phase-alpha');
    await selectByText(page, '#phase', /^from note: beta to note: done$/);
    assert.ok(await frame('SampledPhases.beta'), 'phase 2 shows beta');
    assert.equal(await frame('SampledPhases.alpha'), null, 'phase 2 does not show alpha');
    // The methods table follows the range too.
    await page.click('#tabbtn-methods');
    let methods = await page.$$eval('#methods tbody td.name', (tds) => tds.map((td) => td.textContent));
    assert.ok(methods.includes('phases.SampledPhases.beta') && !methods.includes('phases.SampledPhases.alpha'), methods.join());
    await page.click('#tabbtn-tree');
    // A click between the markers "alpha" and "beta" selects that phase.
    await page.click('#range-clear');
    assert.equal(+(await attr(page, '#samples', 'inRange')), all);
    const [lo, hi] = alpha.split(':').map(Number);
    const at = await page.evaluate((t) => window.hpmExplorer.samplesAt(t), (lo + hi) / 2);
    await page.mouse.click(at.x, at.y);
    assert.equal(await page.inputValue('#phase'), alpha, 'the click picked the phase');
    assert.equal(await frame('SampledPhases.beta'), null);
    // A range dragged inside phase 2.
    const from = await page.evaluate((t) => window.hpmExplorer.samplesAt(t), hi + (hi - lo) * 0.2), to = await page.evaluate((t) => window.hpmExplorer.samplesAt(t), hi + (hi - lo) * 0.8);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    inRange = +(await attr(page, '#samples', 'inRange'));
    assert.ok(inRange > 20 && inRange < all, `dragged: ${inRange} of ${all}`);
    assert.ok((await frame('SampledPhases.beta')) && !(await frame('SampledPhases.alpha')), 'a range inside phase 2 shows beta alone');
    await shot(page, 'samples-dragged');
  });
  await check('no console error and no network request (phases)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ a JFR import against a run
{
  const totals = [];
  for (const [name, file] of [['JFR → run', cfg.jfrRun], ['run → JFR', cfg.runJfr]]) {
    const page = await open(file);
    await check(name + ': both runs are compared on one metric, with non-zero totals', async () => {
      await page.click('#tabbtn-diff');
      const msg = await text(page, '#diff-msg');
      assert.match(msg, /the runs share no metric: comparing (execution-time of A with cpu-time of B|cpu-time of A with execution-time of B)/);
      const t = (await attr(page, '#diff-msg', 'totals')).split(' ').map(Number);
      assert.ok(t[0] > 0 && t[1] > 0, 'totals ' + t);
      totals.push(t);
      await shot(page, 'diff-' + (totals.length === 1 ? 'jfr-run' : 'run-jfr'));
    });
    await check('no console error and no network request (' + name + ')', async () => assert.deepEqual(page.problems, []));
    await page.close();
  }
  await check('the two orders give the same totals, swapped', async () => assert.deepEqual(totals[1], totals[0].slice().reverse()));
}

// ------------------------------------------------------------------ noise and a planted change
{
  const changedPaths = (page) => page.$$eval('#diff tbody tr.changed', (rs) => rs.map((r) => r.title));
  const page = await open(cfg.noise);
  await check('a normalised diff flags only the planted change; absolute values flag every context', async () => {
    await page.click('#tabbtn-diff');
    assert.equal(await attr(page, '#diff-msg', 'diffValues'), 'share', 'totals differ by 26.5%: shares by default');
    assert.match(await text(page, '#diff-msg'), /Comparing shares of each run's total cpu-time .*differ by 26\.5%/);
    let paths = await changedPaths(page);
    assert.equal(paths.length, 1, paths.join());
    assert.match(paths[0], /app\.Noise\.m19$/);
    await shot(page, 'diff-noise-share');
    await page.selectOption('#diff-values', 'absolute');
    assert.match(await text(page, '#diff-msg'), /Comparing absolute cpu-time/);
    paths = await changedPaths(page);
    assert.equal(paths.length, 20, paths.join());
    await shot(page, 'diff-noise-absolute');
  });
  await page.close();
  const abs = await open(cfg.noiseAbsolute);
  await check('hpm explore --diff absolute opens on absolute values', async () => {
    assert.equal(await abs.inputValue('#diff-values'), 'absolute');
    await abs.click('#tabbtn-diff');
    assert.equal((await changedPaths(abs)).length, 20);
  });
  await check('no console error and no network request (noise)', async () => assert.deepEqual(abs.problems, []));
  await abs.close();
}

// ------------------------------------------------------------------ the same frames on both sides
{
  const page = await open(cfg.jdkFrames);
  await check('a diff leaves out the frames one run does not record, on both sides', async () => {
    assert.equal(await page.inputValue('#tree'), 'sampled', 'the first kind of tree both runs have');
    assert.match(await text(page, '#legend'), /frames one run does not record are left out of both/);
    await page.click('#tabbtn-diff');
    const paths = () => page.$$eval('#diff tbody tr', (rs) => rs.map((r) => r.title));
    let ps = await paths();
    assert.ok(ps.some((p) => p.endsWith('phases.SampledPhases.sortAll')), 'sortAll is compared: ' + ps.join(' | '));
    assert.deepEqual(ps.filter((p) => /(^| → )java\./.test(p)), [], 'no JDK frame in the diff');
    await shot(page, 'diff-same-frames');
    await page.uncheck('#diff-same-frames');
    ps = await paths();
    assert.ok(ps.some((p) => /phases\.SampledPhases\.sortAll → java\.util\./.test(p)), 'with every frame, the JDK\'s sort shows: ' + ps.slice(0, 20).join(' | '));
  });
  await check('no console error and no network request (JDK frames)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

// ------------------------------------------------------------------ a run's text report
{
  const page = await open(cfg.report);
  await check('the bottleneck search\'s report has a tab of its own, shown as written', async () => {
    await page.click('#tabbtn-report');
    assert.ok(!(await page.isHidden('#tab-report')) && (await page.isHidden('#tab-tree')), 'the report tab shows alone');
    const t = await text(page, '#reports pre');
    assert.ok(t.includes('Refinement: exact probes') && t.includes('      12  explorer.Shift.grows'), t);
    assert.ok(await page.isHidden('#controls'), 'no tree controls over a report');
    await shot(page, 'report');
    await page.click('#tabbtn-tree');
    assert.ok(await page.isHidden('#tab-report'), 'the tree is back');
  });
  await check('no console error and no network request (report)', async () => assert.deepEqual(page.problems, []));
  await page.close();
}

await browser.close();
if (failures) {
  console.log(`explorer: ${failures} check(s) failed`);
  process.exit(1);
}
console.log('explorer: all checks passed');
