// The explorer's record sets in headless Chromium (run by hpm/tests/explore.rs with one JSON
// argument): `single` is the page of one quantum trace, `two` the page of `hpm explore A B` of two
// traces with a planted difference (B's application threads spend much more time in
// app.Mem.scan). The expected sets, statistics and ranking were computed by the Rust test from
// the records it wrote: `filters` [{inputs: {id: value}, keys}], `ops` {a, b, union, inter, diff}
// (keys), `stats` {inputs, metrics: [{metric, n, mean, sd, min, max, p: [p50, p90, p99]}]},
// `rank` {metric, method, smd: {metric: value}, nx, ny, appX, appY} for the two runs, `rest` {inputs,
// metric, method, smd, nx, ny} for a set against the rest of its trace. Screenshots go to `out`.
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import path from 'node:path';

const cfg = JSON.parse(process.argv[2]);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const shot = (page, name) => page.screenshot({ path: path.join(cfg.out, name + '.png'), fullPage: true });

async function open(url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (!r.url().startsWith('file://')) problems.push('network request: ' + r.url()); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  page.problems = problems;
  return page;
}
const hook = (page, name, ...args) => page.evaluate(([n, a]) => window.hpmExplorer[n](...a), [name, args]);
const keysOf = async (page) => (await hook(page, 'setKeys')).sort();
const sorted = (a) => a.slice().sort();
// Fills the filter fields (ids of the page) and lets the page redraw.
async function filters(page, inputs) {
  await page.click('#rs-reset');
  for (const [id, v] of Object.entries(inputs)) {
    const tag = await page.$eval('#' + id, (e) => e.tagName);
    if (tag === 'SELECT') await page.selectOption('#' + id, v);
    else { await page.fill('#' + id, v); await page.$eval('#' + id, (e) => e.dispatchEvent(new Event('change'))); }
  }
  const msg = await page.$eval('#rs-msg', (e) => e.textContent);
  assert.equal(msg, '', `filters ${JSON.stringify(inputs)}: ${msg}`);
}
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-12);
function checkStats(got, want, what) {
  for (const w of want) {
    const g = got.find((x) => x.metric === w.metric);
    assert.ok(g, `${what}: no statistics of ${w.metric}`);
    assert.equal(g.n, w.n, `${what}: ${w.metric} n`);
    for (const [k, v] of [['mean', w.mean], ['sd', w.sd], ['min', w.min], ['max', w.max], ['p50', w.p[0]], ['p90', w.p[1]], ['p99', w.p[2]]]) {
      assert.ok(close(g[k], v), `${what}: ${w.metric} ${k} = ${g[k]}, computed by the test ${v}`);
    }
  }
}

// ---- one trace: filters, set operations, statistics, the records table and the timeline, URL
let page = await open('file://' + cfg.single);
await page.click('#tabbtn-trace');
for (const f of cfg.filters) {
  await filters(page, f.inputs);
  assert.deepEqual(await keysOf(page), sorted(f.keys), `filter ${JSON.stringify(f.inputs)}`);
  assert.equal(+(await page.$eval('#rs-stats', (e) => e.dataset.count)), f.keys.length);
}
console.log(`filters: ${cfg.filters.length} checked`);

await filters(page, cfg.stats.inputs);
checkStats(await hook(page, 'setStats'), cfg.stats.metrics, 'statistics');
// The table shows them, a row per metric.
const statRows = await page.$$eval('#set-stats tbody tr', (rs) => rs.map((r) => r.dataset.metric));
assert.deepEqual(statRows, cfg.stats.metrics.map((m) => m.metric));
const ipcN = await page.$eval('#set-stats tr[data-metric="IPC"] td:nth-child(2)', (e) => e.textContent);
assert.equal(ipcN, cfg.stats.metrics.find((m) => m.metric === 'IPC').n.toLocaleString('en-US'));
console.log('statistics checked');

// Sets: A (durations), B (methods), then A ∪ B, A ∩ B, A − B.
await filters(page, cfg.ops.a.inputs);
await page.click('#set-save');
await filters(page, cfg.ops.b.inputs);
await page.click('#set-save');
assert.deepEqual(await page.$$eval('#set-list .chip', (cs) => cs.map((c) => c.dataset.set)), ['A', 'B']);
for (const [op, name, want] of [['u', 'C', cfg.ops.union], ['i', 'D', cfg.ops.inter], ['d', 'E', cfg.ops.diff]]) {
  await page.selectOption('#set-x', 'A');
  await page.selectOption('#set-op', op);
  await page.selectOption('#set-y', 'B');
  await page.click('#set-combine');
  assert.equal(await page.$eval('#set-show', (e) => e.value), name);
  assert.deepEqual(await keysOf(page), sorted(want), `set ${name} (A ${op} B)`);
}
// Showing A again puts its filters back.
await page.selectOption('#set-show', 'A');
assert.deepEqual(await keysOf(page), sorted(cfg.ops.a.keys));
assert.equal(await page.$eval('#rs-dmin', (e) => e.value), cfg.ops.a.inputs['rs-dmin']);
await page.selectOption('#set-show', 'C');
checkStats(await hook(page, 'setStats'), cfg.ops.unionStats, 'statistics of A ∪ B');
console.log('set operations checked');

// What differs between the set shown and the rest of the trace (the default comparison).
async function checkRanking(page, want, what) {
  const r = await hook(page, 'ranking');
  assert.equal(r.nx, want.nx, what + ': records of X');
  assert.equal(r.ny, want.ny, what + ': records of Y');
  assert.equal(r.methods[0].method, want.method, what + ': the top method');
  assert.equal(r.metrics[0].metric, want.metric, what + ': the top metric');
  for (const m of r.metrics) assert.ok(close(m.smd, want.smd[m.metric]), `${what}: SMD of ${m.metric}: ${m.smd}, computed by the test ${want.smd[m.metric]}`);
  assert.equal(await page.$eval('#cmp-methods tbody tr td', (e) => e.textContent), want.method);
  assert.equal(await page.$eval('#cmp-metrics tbody tr td', (e) => e.textContent), want.metric);
}
await page.selectOption('#set-show', '');
await filters(page, cfg.rest.inputs);
assert.equal(await page.$eval('#cmp-y', (e) => e.value), '!');
await checkRanking(page, cfg.rest, 'a set against the rest');
console.log('ranking of two sets checked');
await page.selectOption('#set-show', 'C');

// The address keeps the named sets: a new page at it shows the same.
const url = page.url();
assert.match(url, /#sets=/);
const again = await open(url);
assert.ok(!(await again.$eval('#tab-trace', (e) => e.hidden)), 'the page opens on its trace when the address names sets');
assert.deepEqual(await again.$$eval('#set-list .chip', (cs) => cs.map((c) => c.dataset.set)), ['A', 'B', 'C', 'D', 'E']);
assert.equal(await again.$eval('#set-show', (e) => e.value), 'C');
assert.deepEqual(await keysOf(again), sorted(cfg.ops.union));
await again.selectOption('#set-show', 'E');
assert.deepEqual(await keysOf(again), sorted(cfg.ops.diff));
assert.deepEqual(again.problems, []);
await again.close();
console.log('address save and restore checked');

// The records table and the timeline: a row's click shows its record (zoomed, outlined).
await page.selectOption('#set-show', 'B');
const rows = await hook(page, 'rows');
assert.equal(rows.length, cfg.ops.b.keys.length);
assert.ok(rows.length > 100, 'the set needs a second page');
const pixel = (x, y) => page.evaluate(([x, y]) => {
  const cv = document.getElementById('timeline'), r = cv.getBoundingClientRect(), d = window.devicePixelRatio || 1;
  return [...cv.getContext('2d').getImageData(Math.round((x - r.left) * d), Math.round((y - r.top) * d), 1, 1).data];
}, [x, y]);
const third = rows[2];
await page.click(`#records tr[data-rec="${third}"]`);
assert.equal(await hook(page, 'selected'), third);
const view = await hook(page, 'view');
assert.ok(view.span < view.end / 20, `the timeline zooms to the record: ${JSON.stringify(view)}`);
let box = await hook(page, 'recordBox', third);
assert.ok(box.w > 20, `the record is wide once zoomed: ${JSON.stringify(box)}`);
const edge = await pixel(box.x, box.top - 1);
assert.ok(edge[0] < 40 && edge[1] < 40 && edge[2] < 40, `the record is outlined: ${edge}`);
assert.ok(await page.$eval(`#records tr[data-rec="${third}"]`, (e) => e.classList.contains('picked')));
await shot(page, 'sets-row-to-timeline');
// A record clicked on the whole timeline: its row, on its page, selected and in view.
await page.click('#tl-whole');
const later = rows.slice(100);
let pick = later[0], widest = -1;
for (const i of later) { const b = await hook(page, 'recordBox', i); if (b.w > widest) { widest = b.w; pick = i; } }
box = await hook(page, 'recordBox', pick);
await page.mouse.click(box.x, box.y);
assert.equal(await hook(page, 'selected'), pick, 'the record clicked is selected');
const row = await page.$(`#records tr[data-rec="${pick}"]`);
assert.ok(row, 'its row is on the page shown');
assert.ok(await row.evaluate((e) => e.classList.contains('picked')));
assert.match(await page.$eval('#rec-msg', (e) => e.textContent), /^rows 101–/);
const inView = await row.evaluate((e) => { const r = e.getBoundingClientRect(), b = e.closest('.table-box').getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom + 1; });
assert.ok(inView, 'the row is scrolled into view');
// Sorting by duration (click again: descending) keeps the selection.
await page.click('#records th:nth-child(2)');
await page.click('#records th:nth-child(2)');
const byDur = await hook(page, 'rows');
assert.equal(byDur.length, rows.length);
const durs = await page.$$eval('#records tbody tr', (rs) => rs.length);
assert.ok(durs <= 100);
await shot(page, 'sets-timeline-to-row');
assert.deepEqual(page.problems, []);
await page.close();
console.log('records table and timeline checked');

// ---- two runs' traces: what differs, B's records against A's.
page = await open('file://' + cfg.two);
await page.click('#tabbtn-trace');
assert.equal(await page.$eval('#cmp-y', (e) => e.value), 'B:');
await checkRanking(page, cfg.rank, 'run A against run B');
// The application's records of both: the same filters apply to B's trace.
await filters(page, { 'rs-method': '^app' });
const app = await hook(page, 'ranking');
assert.equal(app.nx, cfg.rank.appX);
assert.equal(app.ny, cfg.rank.appY);
await page.$eval('#cmp-methods', (e) => e.scrollIntoView());
await shot(page, 'sets-two-runs');
assert.deepEqual(page.problems, []);
console.log('ranking of two traces checked');

await browser.close();
console.log('record sets: all checks passed');
