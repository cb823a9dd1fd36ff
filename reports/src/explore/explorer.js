// hpm explore: the page's code. Plain JavaScript, no libraries, no network.
//
// Data: one JSON block (id "hpm-data", written by reports/src/explore/mod.rs): profiles (call trees
// as columns: parent deltas, consumer, calls, base per metric) and an optional quantum trace
// (records as columns). Everything shown is computed here from those columns.
//
// Values of a node are kept per *slot*: slot 0 is calls, slot k + 1 is metric k. A metric shown
// (recorded, or computed from an expression) is a function of a node's slots.
'use strict';
(function () {
  const T_START = performance.now();
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'class') e.className = attrs[k];
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    }
    for (const c of kids) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  };

  // A name that wraps only after its separators ('.', '$', ',', '(', and ' → ' in paths): the text with
  // a <wbr> after each. The CSS breaks inside a part only when the part alone is wider than a line.
  const wrapName = (name) => {
    const f = document.createDocumentFragment();
    for (const part of name.split(/(?<=[.,( $])/)) { f.append(part); f.append(document.createElement('wbr')); }
    return f;
  };

  // ---------------------------------------------------------------- numbers
  const group = (v) => {
    if (!isFinite(v)) return '-';
    const r = Math.round(v);
    return Math.abs(r - v) < 1e-9 || Math.abs(v) >= 1000 ? r.toLocaleString('en-US') : v.toPrecision(4);
  };
  // "1 context", "2 contexts", "1,234 contexts".
  const plural = (n, word) => n.toLocaleString('en-US') + ' ' + word + (n === 1 ? '' : 's');
  function fmt(v, unit) {
    if (v === null || v === undefined || !isFinite(v)) return '-';
    if (unit === 'share') return pct(v);
    const a = Math.abs(v);
    if (unit === 'ns') {
      if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e11 ? 0 : 2) + ' s';
      if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e8 ? 0 : 2) + ' ms';
      if (a >= 1e3) return (v / 1e3).toFixed(a >= 1e5 ? 0 : 2) + ' µs';
      return Math.round(v) + ' ns';
    }
    if (unit === 'ratio') return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(3);
    if (a >= 1e12) return (v / 1e12).toFixed(2) + ' T';
    if (a >= 1e9) return (v / 1e9).toFixed(2) + ' G';
    if (a >= 1e7) return (v / 1e6).toFixed(2) + ' M';
    return group(v);
  }
  const pct = (v) => (isFinite(v) ? (v * 100).toFixed(Math.abs(v) >= 0.1 || v === 0 ? 1 : 2) + '%' : '-');
  const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  // ---------------------------------------------------------------- expressions
  // Grammar: expr = term (('+'|'-') term)*; term = unary (('*'|'/') unary)*;
  // unary = '-' unary | atom; atom = number | name | '(' expr ')'. Names are the known metric
  // names, matched longest first (so `cache-misses` is one name, not `cache - misses`), `calls`,
  // or any name written in [brackets]. Never evaluated with eval: compiled to closures.
  function parseExpr(text, names) {
    const sorted = names.map((n, i) => [n, i]).filter((x) => x[0]).sort((a, b) => b[0].length - a[0].length);
    let i = 0;
    const fail = (msg) => { throw new Error(msg + ' at character ' + (i + 1)); };
    const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
    function atom() {
      ws();
      if (i >= text.length) fail('expression ends early');
      const c = text[i];
      if (c === '(') { i++; const e = expr(); ws(); if (text[i] !== ')') fail('missing )'); i++; return e; }
      const num = /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(text.slice(i));
      if (num) { i += num[0].length; return { op: 'num', v: parseFloat(num[0]) }; }
      if (c === '[') {
        const end = text.indexOf(']', i);
        if (end < 0) fail('missing ]');
        const name = text.slice(i + 1, end).trim();
        const found = sorted.find((x) => x[0] === name);
        if (!found) fail('unknown metric `' + name + '`');
        i = end + 1;
        return { op: 'ref', slot: found[1], name };
      }
      for (const [n, slot] of sorted) {
        if (text.startsWith(n, i) && !/[\w.:-]/.test(text[i + n.length] || ' ')) { i += n.length; return { op: 'ref', slot, name: n }; }
      }
      const word = /^[\w.:/=-]+/.exec(text.slice(i));
      fail(word ? 'unknown metric `' + word[0] + '` (known: ' + names.filter((n) => n).join(', ') + ')' : 'unexpected `' + c + '`');
    }
    function unary() { ws(); if (text[i] === '-') { i++; return { op: 'neg', a: unary() }; } return atom(); }
    function term() {
      let a = unary();
      for (;;) { ws(); const c = text[i]; if (c !== '*' && c !== '/') return a; i++; a = { op: c, a, b: unary() }; }
    }
    function expr() {
      let a = term();
      for (;;) { ws(); const c = text[i]; if (c !== '+' && c !== '-') return a; i++; a = { op: c, a, b: term() }; }
    }
    const e = expr();
    ws();
    if (i < text.length) fail('unexpected `' + text[i] + '`');
    return e;
  }
  // get(slot) → value; the closure never sees anything but numbers.
  function compile(e) {
    switch (e.op) {
      case 'num': { const v = e.v; return () => v; }
      case 'ref': { const s = e.slot; return (get) => get(s); }
      case 'neg': { const a = compile(e.a); return (get) => -a(get); }
      default: {
        const a = compile(e.a), b = compile(e.b);
        if (e.op === '+') return (get) => a(get) + b(get);
        if (e.op === '-') return (get) => a(get) - b(get);
        if (e.op === '*') return (get) => a(get) * b(get);
        return (get) => { const d = b(get); return d === 0 ? NaN : a(get) / d; };
      }
    }
  }
  const isConst = (e) => e.op === 'num' || (e.op === 'neg' && isConst(e.a)) || (e.op !== 'ref' && e.a && e.b && isConst(e.a) && isConst(e.b));
  // Linear in the slots (sums of scaled metrics): values then add up over a subtree.
  function isLinear(e) {
    if (e.op === 'ref') return true;
    if (e.op === 'num') return false;
    if (e.op === 'neg') return isLinear(e.a);
    // A constant added would count once per node: `a + 1` does not add up over a subtree.
    if (e.op === '+' || e.op === '-') return isLinear(e.a) && isLinear(e.b);
    if (e.op === '*') return (isLinear(e.a) && isConst(e.b)) || (isConst(e.a) && isLinear(e.b));
    if (e.op === '/') return isLinear(e.a) && isConst(e.b);
    return false;
  }
  const refs = (e, out = []) => { if (e.op === 'ref') out.push(e.slot); if (e.a) refs(e.a, out); if (e.b) refs(e.b, out); return out; };
  // The slot a ratio is "per": its denominator's first metric (instructions for misses/Kinstr).
  function perSlot(e) {
    while (e.op === '*' || (e.op === '/' && isConst(e.b))) e = isConst(e.b) ? e.a : isConst(e.a) ? e.b : e;
    if (e.op === '/') { const r = refs(e.b); if (r.length) return r[0]; }
    const r = refs(e);
    return r.length ? r[0] : 0;
  }

  // A shown metric over slot names: recorded (one slot) or computed (an expression).
  function makeMetric(label, text, names, units) {
    const e = parseExpr(text, names);
    if (isConst(e)) throw new Error('`' + text + '` names no metric');
    const linear = isLinear(e);
    const r = refs(e);
    const unit = linear && r.every((s) => units[s] === units[r[0]]) ? units[r[0]] : 'ratio';
    return { label, text, fn: compile(e), linear, single: e.op === 'ref' ? e.slot : -1, per: linear ? -1 : perSlot(e), unit };
  }
  const baseName = (n) => n.split(':')[0];
  // IPC and misses per 1000 instructions, when their inputs are recorded (as xprof does).
  function standardComputed(names) {
    const find = (cands) => names.findIndex((n) => n && cands.includes(baseName(n)));
    const out = [];
    const ins = find(['instructions']), cyc = find(['cycles', 'cpu-cycles']);
    const q = (n) => '[' + n + ']';
    if (ins >= 0 && cyc >= 0) out.push(['IPC', q(names[ins]) + ' / ' + q(names[cyc])]);
    if (ins >= 0) names.forEach((n, k) => { if (n && baseName(n).endsWith('-misses')) out.push([n + '/Kinstr', q(n) + ' / ' + q(names[ins]) + ' * 1000']); });
    return out;
  }

  // ---------------------------------------------------------------- data
  // Packed columns (reports/src/explore/mod.rs): 5 bits per character, lowest first; characters
  // of MORE continue a number, a character of LAST ends it.
  const MORE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', LAST = 'abcdefghijklmnopqrstuvwxyz6789-_';
  const DIGIT = new Int8Array(128).fill(-1);
  for (let d = 0; d < 32; d++) { DIGIT[MORE.charCodeAt(d)] = d; DIGIT[LAST.charCodeAt(d)] = 32 + d; }
  function unpack(s, Out) {
    let n = 0;
    for (let i = 0; i < s.length; i++) if (DIGIT[s.charCodeAt(i)] >= 32) n++;
    const out = new Out(n);
    let v = 0, mul = 1, k = 0;
    for (let i = 0; i < s.length; i++) {
      const d = DIGIT[s.charCodeAt(i)];
      if (d < 0) throw new Error('hpm explore: bad character in the embedded data');
      if (d < 32) { v += d * mul; mul *= 32; } else { out[k++] = v + (d - 32) * mul; v = 0; mul = 1; }
    }
    return out;
  }
  // Milliseconds since navigation start at each step of the first render (shown to tests and the benchmark).
  const timings = { script: T_START };
  const DATA = JSON.parse($('hpm-data').textContent);
  timings.parsed = performance.now();
  if (DATA.format !== 'hpm-explore' || DATA.version !== 2) throw new Error('hpm explore: this page holds data version ' + DATA.version + ', not 2');
  const RUNS = DATA.runs;
  // What the tree selector calls each kind of tree.
  const TREE_LABELS = { calls: 'calls (exact)', sampled: 'stack samples', 'sampled-states': 'stack samples by thread state', 'sampled-alloc': 'allocation samples', locks: 'locks (contended monitors)', waits: 'waits' };

  function loadProfile(p) {
    const parent = unpack(p.parent, Int32Array), n = parent.length;
    for (let i = 0; i < n; i++) parent[i] = parent[i] === 0 ? -1 : i - parent[i];
    const cons = unpack(p.consumer, Int32Array), calls = unpack(p.calls, Float64Array);
    const base = p.base.map((col) => unpack(col, Float64Array));
    const threadEnds = p.threads.map((t, k) => (k + 1 < p.threads.length ? p.threads[k + 1].root : n));
    const names = p.names.slice();
    const ALL = names.length;
    names.push('all threads');
    // The samples' timeline, per thread: times (ns since the run's start) and global node indexes.
    let timeline = null;
    if (p.timeline) {
      timeline = p.threads.map((t, k) => {
        const times = unpack(p.timeline.times[k], Float64Array), nodes = unpack(p.timeline.nodes[k], Int32Array);
        for (let i = 1; i < times.length; i++) times[i] += times[i - 1];
        for (let i = 0; i < nodes.length; i++) nodes[i] += t.root;
        return { times, nodes, dropped: p.timeline.dropped[k] };
      });
    }
    // Drop the parsed arrays: the typed ones replace them.
    p.parent = p.consumer = p.calls = p.base = p.timeline = null;
    return {
      label: p.label, run: p.run, tree: p.tree, treeLabel: p.treeLabel, hidden: new Set(p.hidden), timeline,
      countLabel: p.countLabel || 'calls', metrics: p.metrics, threads: p.threads, threadEnds,
      names, ALL, parent, cons, calls, base, nodes: n,
      slotNames: [p.countLabel || 'calls'].concat(p.metrics.map((m) => m.name)),
      slotUnits: [''].concat(p.metrics.map((m) => m.unit)),
    };
  }
  const PROFILES = DATA.profiles.map(loadProfile);
  // What the tree selector calls a tree: its kind's name, or a phase's own label (`phase-N`).
  const treeLabel = (key) => TREE_LABELS[key] || (PROFILES.find((p) => p.tree === key) || {}).treeLabel || key;
  timings.loaded = performance.now();

  // ---------------------------------------------------------------- views
  // A view is one tree as shown: one thread's tree, or all threads merged by context (same path of
  // names). Arrays by view node: parent (< child), cons, per slot self values, cum, and children in
  // name order (CSR: kids[kidStart[n] .. kidStart[n + 1]]).
  // `opts.hide`: consumers left out (their values go to their nearest shown caller: the counts too
  // where they are samples, not where they are calls); `opts.values`: {calls, base} to use instead
  // of the profile's (the samples in a time range).
  function viewOf(P, thread, opts) {
    const slots = P.base.length + 1;
    const hide = opts && opts.hide && opts.hide.size ? opts.hide : null;
    const calls = opts && opts.values ? opts.values.calls : P.calls, base = opts && opts.values ? opts.values.base : P.base;
    // With values of a time range: the contexts with a sample in it, and their callers.
    let live = null;
    if (opts && opts.values) {
      live = new Uint8Array(P.nodes);
      for (let i = P.nodes - 1; i >= 0; i--) if (calls[i] > 0 || live[i]) { live[i] = 1; if (P.parent[i] >= 0) live[P.parent[i]] = 1; }
    }
    let parent, cons, self;
    if (thread >= 0 && !hide && !live) {
      const lo = P.threads[thread].root, hi = P.threadEnds[thread], n = hi - lo;
      parent = new Int32Array(n);
      for (let i = 0; i < n; i++) parent[i] = i === 0 ? -1 : P.parent[lo + i] - lo;
      cons = P.cons.slice(lo, hi);
      self = [calls.slice(lo, hi)].concat(base.map((b) => b.slice(lo, hi)));
    } else {
      // Map every node to the view node of (mapped parent, consumer): a merge of all threads, or
      // one thread with frames left out (or with no sample in the range).
      const lo = thread >= 0 ? P.threads[thread].root : 0, hi = thread >= 0 ? P.threadEnds[thread] : P.nodes, n = hi - lo;
      const map = new Int32Array(n);
      parent = new Int32Array(n); cons = new Int32Array(n);
      const selfs = [];
      for (let s = 0; s < slots; s++) selfs.push(new Float64Array(n));
      parent[0] = -1; cons[0] = thread >= 0 ? P.cons[lo] : P.ALL;
      const index = contextIndex(parent, cons, 1);
      const moveCounts = P.countLabel === 'samples';
      for (let i = lo; i < hi; i++) {
        const pi = P.parent[i], hidden = pi >= 0 && ((hide && hide.has(P.cons[i])) || (live && !live[i]));
        const v = pi < 0 ? 0 : hidden ? map[pi - lo] : index.place(map[pi - lo], P.cons[i]);
        map[i - lo] = v;
        if (!hidden || moveCounts) selfs[0][v] += calls[i];
        for (let s = 1; s < slots; s++) selfs[s][v] += base[s - 1][i];
      }
      const m = index.size();
      parent = parent.slice(0, m); cons = cons.slice(0, m);
      self = selfs.map((a) => a.slice(0, m));
    }
    if (!timings.merged) timings.merged = performance.now();
    return finishView(P.names, parent, cons, self, P.slotNames, P.slotUnits);
  }

  // The node of context (parent, consumer) in arrays `parent` and `cons`, made when new: an
  // open-addressing hash table over int32 keys (a Map of 1M number keys is several times slower).
  function contextIndex(parent, cons, used) {
    let m = used;
    const cap = 1 << Math.ceil(Math.log2(parent.length * 2 + 2)), mask = cap - 1;
    const slot = new Int32Array(cap).fill(-1);
    const hash = (p, c) => { let h = Math.imul(p ^ Math.imul(c + 1, 0x85ebca77), 0x9e3779b1); h ^= h >>> 15; return h & mask; };
    return {
      place(p, c) {
        for (let h = hash(p, c); ; h = (h + 1) & mask) {
          const v = slot[h];
          if (v < 0) { parent[m] = p; cons[m] = c; slot[h] = m; return m++; }
          if (parent[v] === p && cons[v] === c) return v;
        }
      },
      size: () => m,
    };
  }

  let nameRank = null;
  function finishView(names, parent, cons, self, slotNames, slotUnits) {
    const n = parent.length;
    const cum = self.map((a) => Float64Array.from(a));
    for (let i = n - 1; i > 0; i--) { const p = parent[i]; for (let s = 0; s < cum.length; s++) cum[s][p] += cum[s][i]; }
    const depth = new Int32Array(n);
    const kidStart = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) { depth[i] = depth[parent[i]] + 1; kidStart[parent[i] + 1]++; }
    for (let i = 0; i < n; i++) kidStart[i + 1] += kidStart[i];
    if (!timings.cum) timings.cum = performance.now();
    const fill = kidStart.slice(0, n), kids = new Int32Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) kids[fill[parent[i]]++] = i;
    // Children in name order (as flame graphs draw them): stable across metrics and runs.
    const rank = rankNames(names);
    for (let i = 0; i < n; i++) {
      const a = kidStart[i], b = kidStart[i + 1];
      if (b - a > 1) kids.subarray(a, b).sort((x, y) => rank[cons[x]] - rank[cons[y]]);
    }
    return { names, parent, cons, self, cum, depth, kidStart, kids, n, slotNames, slotUnits, cache: new Map() };
  }
  function rankNames(names) {
    if (nameRank && nameRank.names === names) return nameRank.rank;
    const order = names.map((_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    const rank = new Int32Array(names.length);
    order.forEach((c, r) => { rank[c] = r; });
    nameRank = { names, rank };
    return rank;
  }

  // The metrics two trees can be compared on, as {a, b} slot pairs: the count when both count the
  // same thing (calls, samples), and every metric of the same name. Trees that share no metric (a
  // JFR recording against the agent's run) are compared on the first time metric (ns) of each,
  // whichever run is A, so both orders compare the same; the legend says so.
  function pairSlots(A, B) {
    const pairs = [];
    const countPaired = A.countLabel === B.countLabel;
    if (countPaired) pairs.push({ a: 0, b: 0 });
    const metrics = [];
    A.metrics.forEach((m, k) => {
      const j = B.metrics.findIndex((x) => x.name === m.name);
      if (j >= 0) { pairs.push({ a: k + 1, b: j + 1 }); metrics.push(m); }
    });
    let note = null;
    if (!metrics.length) {
      const a = A.metrics.findIndex((m) => m.unit === 'ns'), b = B.metrics.findIndex((m) => m.unit === 'ns');
      if (a >= 0 && b >= 0) {
        pairs.push({ a: a + 1, b: b + 1 });
        metrics.push({ name: A.metrics[a].name + ' ~ ' + B.metrics[b].name, unit: 'ns', mode: A.metrics[a].mode });
        note = 'the runs share no metric: comparing ' + A.metrics[a].name + ' of A with ' + B.metrics[b].name + ' of B';
      } else if (!countPaired) {
        pairs.push({ a: 0, b: 0 });
        note = 'the runs share no metric and count different things: comparing ' + A.countLabel + ' of A with ' + B.countLabel + ' of B';
      }
    }
    return { pairs, metrics, countPaired: countPaired || !metrics.length, note };
  }

  // What a diff of trees A and B compares, shaped as a profile for the selectors: its slots are
  // the pairs of pairSlots; threads are A's.
  function diffProfileOf(A, B) {
    const { pairs, metrics, countPaired, note } = pairSlots(A, B);
    if (!countPaired) pairs.unshift({ a: 0, b: -1 });
    const countLabel = countPaired ? (A.countLabel === B.countLabel ? A.countLabel : A.countLabel + ' ~ ' + B.countLabel) : A.countLabel;
    return {
      A, B, pairs, note, noCount: !countPaired, metrics, countLabel, threads: A.threads, threadEnds: A.threadEnds,
      slotNames: [countLabel].concat(metrics.map((m) => m.name)), slotUnits: [''].concat(metrics.map((m) => m.unit)),
    };
  }

  // The diff of two views: the union of their contexts (by path of names), with B's values as the
  // view's and A's kept as `before`, in the slots of D (diffProfileOf).
  function diffView(VA, VB, D) {
    const names = [], ids = new Map();
    const nameId = (s) => { let v = ids.get(s); if (v === undefined) { v = names.length; names.push(s); ids.set(s, v); } return v; };
    const slots = D.pairs.length;
    const cap = VA.n + VB.n;
    const parent = new Int32Array(cap), cons = new Int32Array(cap);
    const after = [], before = [];
    for (let s = 0; s < slots; s++) { after.push(new Float64Array(cap)); before.push(new Float64Array(cap)); }
    const index = contextIndex(parent, cons, 0), place = index.place;
    const mapA = new Int32Array(VA.n), mapB = new Int32Array(VB.n);
    for (let i = 0; i < VA.n; i++) {
      const v = i === 0 ? place(-1, nameId(VA.names[VA.cons[0]])) : place(mapA[VA.parent[i]], nameId(VA.names[VA.cons[i]]));
      mapA[i] = v;
      for (let s = 0; s < slots; s++) before[s][v] += VA.self[D.pairs[s].a][i];
    }
    for (let i = 0; i < VB.n; i++) {
      const v = i === 0 ? mapA[0] : place(mapB[VB.parent[i]], nameId(VB.names[VB.cons[i]]));
      mapB[i] = v;
      for (let s = 0; s < slots; s++) if (D.pairs[s].b >= 0) after[s][v] += VB.self[D.pairs[s].b][i];
    }
    const m = index.size();
    const V = finishView(names, parent.slice(0, m), cons.slice(0, m), after.map((a) => a.slice(0, m)), D.slotNames, D.slotUnits);
    const b = before.map((a) => a.slice(0, m));
    V.before = { self: b, cum: b.map((a) => Float64Array.from(a)) };
    for (let i = m - 1; i > 0; i--) for (let s = 0; s < slots; s++) V.before.cum[s][V.parent[i]] += V.before.cum[s][i];
    return V;
  }

  // A diff's values of (linear) metric W, before (a) and after (b): as recorded, or each run's as
  // a share of its own total. `auto` takes shares when the totals differ by more than 1% of the
  // larger (then a context whose share did not change would show a change above the default
  // threshold of "changed"). Cached per view, metric and mode.
  const SHARE_WHEN_TOTALS_DIFFER = 0.01;
  function diffValues(V, W) {
    const a0 = values(V, W, 'before'), b0 = values(V, W);
    const ta = a0.cum[0], tb = b0.cum[0];
    const differ = Math.abs(ta - tb) > SHARE_WHEN_TOTALS_DIFFER * Math.max(Math.abs(ta), Math.abs(tb));
    const share = state.diffValues === 'share' || (state.diffValues === 'auto' && differ);
    const key = W.text + '|' + share;
    if (V.diffCache && V.diffCache.key === key) return V.diffCache.r;
    let r;
    if (!share) r = { a: a0, b: b0, share, ta, tb, unit: W.unit };
    else {
      const scale = (x, t) => ({ self: x.self.map((v) => (t ? v / t : 0)), cum: x.cum.map((v) => (t ? v / t : 0)) });
      r = { a: scale(a0, ta), b: scale(b0, tb), share, ta, tb, unit: 'share' };
    }
    V.diffCache = { key, r };
    return r;
  }
  // What the diff shows, in words (the legend and the diff tab say it).
  function diffModeText(d, W) {
    const totals = fmt(d.ta, W.unit) + ' → ' + fmt(d.tb, W.unit);
    const by = Math.abs(d.tb - d.ta) / Math.max(Math.abs(d.ta), Math.abs(d.tb), 1e-300);
    if (d.share) return 'shares of each run\'s total ' + W.label + ' (totals ' + totals + (state.diffValues === 'auto' ? ', differ by ' + pct(by) : '') + ')';
    return 'absolute ' + W.label + ' (totals ' + totals + (state.diffValues === 'auto' ? ', within ' + pct(SHARE_WHEN_TOTALS_DIFFER) : '') + ')';
  }

  // Values of metric M on view V: self and total per node (cached per view and metric).
  function values(V, M, which) {
    const src = which === 'before' ? V.before : V;
    const key = M.text + '|' + (which || '');
    let r = V.cache.get(key);
    if (r) return r;
    if (M.single >= 0) r = { self: src.self[M.single], cum: src.cum[M.single] };
    else {
      const self = new Float64Array(V.n), cum = new Float64Array(V.n);
      let i = 0;
      const gs = (s) => src.self[s][i], gc = (s) => src.cum[s][i];
      for (i = 0; i < V.n; i++) { self[i] = M.fn(gs); cum[i] = M.fn(gc); }
      r = { self, cum };
    }
    V.cache.set(key, r);
    return r;
  }

  // ---------------------------------------------------------------- state
  const state = {
    profile: 0, // run index, or 'diff'
    tree: PROFILES.length ? PROFILES[0].tree : null, // the kind of tree shown (a diff: A's)
    thread: -1,
    metric: 0,
    userExprs: [],
    // The trace's record set shown ('' the filters, or a named set), the records table's sort
    // column, order and page, the record selected, the timeline's time window (null: all).
    show: '', recSort: 0, recAsc: true, recPage: 0, sel: -1, tlView: null,
    mode: 'flame',
    zoom: 0,
    search: '',
    picked: -1, // consumer shown in the xarc panel (view names)
    tab: null,
    diffValues: DATA.diffValues || 'auto', // auto, absolute, share
    sameFrames: true, // a diff leaves out, on each side, frames the other run does not record
    range: null, // [from, to] ns: the samples' time range the tree is made of
  };
  const treesOf = (run) => PROFILES.filter((p) => p.run === run);
  // The tree shown of a run (its first when it has none of the kind selected).
  const treeOf = (run, kind) => PROFILES.find((p) => p.run === run && p.tree === kind) || treesOf(run)[0];
  const diffs = new Map();
  function diffProfile() {
    let D = diffs.get(state.tree);
    if (!D) { const A = treeOf(0, state.tree); D = diffProfileOf(A, treeOf(1, A.tree)); diffs.set(state.tree, D); }
    return D;
  }
  const profileForNames = () => (state.profile === 'diff' ? diffProfile() : treeOf(state.profile, state.tree));
  let VIEW = null;
  const views = new Map();
  function currentView() {
    const key = [state.profile, state.tree, state.thread, state.sameFrames, state.range && state.range.join(':')].join('/');
    let V = views.get(key);
    if (!V) {
      if (state.profile === 'diff') {
        const D = diffProfile(), A = D.A, B = D.B;
        const name = state.thread >= 0 ? A.threads[state.thread].name : null;
        const tb = name === null ? -1 : B.threads.findIndex((t) => t.name === name);
        const hide = (P) => ({ hide: state.sameFrames ? P.hidden : null });
        V = diffView(viewOf(A, state.thread, hide(A)), name !== null && tb < 0 ? emptyView(B) : viewOf(B, tb, hide(B)), D);
      } else {
        const P = profileForNames();
        V = viewOf(P, state.thread, { values: state.range && P.timeline ? rangeValues(P, state.range) : null });
      }
      views.set(key, V);
    }
    return V;
  }
  function emptyView(P) {
    return finishView(P.names, Int32Array.of(-1), Int32Array.of(P.ALL), P.slotNames.map(() => new Float64Array(1)), P.slotNames, P.slotUnits);
  }

  // The metrics the selector offers for profile P: recorded, calls, standard computed, the user's.
  function treeMetrics(P) {
    const out = [];
    P.metrics.forEach((m, k) => out.push(makeMetric(m.name + (m.mode === 'sampled' ? ' (sampled)' : ''), '[' + m.name + ']', P.slotNames, P.slotUnits)));
    if (!P.noCount) out.push(makeMetric(P.countLabel, '[' + P.slotNames[0] + ']', P.slotNames, P.slotUnits));
    for (const [label, text] of standardComputed(P.slotNames)) out.push(makeMetric(label, text, P.slotNames, P.slotUnits));
    for (const text of state.userExprs) { try { out.push(makeMetric(text, text, P.slotNames, P.slotUnits)); } catch (e) { /* names of another part */ } }
    return out;
  }
  let METRICS = PROFILES.length ? treeMetrics(PROFILES[0]) : [];
  const metric = () => METRICS[Math.min(state.metric, METRICS.length - 1)];
  // The metric whose totals set frame widths: the metric itself when it adds up, else the slot it
  // is a ratio per (IPC: cycles).
  function widthMetric(M) {
    if (M.linear) return M;
    const P = profileForNames();
    return makeMetric(P.slotNames[M.per], '[' + P.slotNames[M.per] + ']', P.slotNames, P.slotUnits);
  }

  // ---------------------------------------------------------------- time axes
  // Shared by the trace's timeline and the samples' timeline: ticks and times under a plot
  // (X: time → x), markers as dashed lines with their text, and a time range dragged (or a
  // point clicked) on a canvas whose geometry `geom()` gives ({LABEL, plotW, span}).
  function niceStep(x) { const p = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-9)))); const f = x / p; return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p; }
  // A timeline's canvas, as wide as its box and `H` pixels high, cleared; its context and width.
  function timelineCanvas(cv, H) {
    const c = cv.getContext('2d'), W = Math.max(600, cv.parentElement.clientWidth - 2), dpr = window.devicePixelRatio || 1;
    cv.width = W * dpr; cv.height = H * dpr; cv.style.width = W + 'px'; cv.style.height = H + 'px';
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.fillStyle = '#fff'; c.fillRect(0, 0, W, H);
    return { c, W };
  }
  function timeAxis(c, X, span, y, lo = 0) {
    c.textBaseline = 'top'; c.fillStyle = '#65707c'; c.font = '10px system-ui, sans-serif';
    const step = niceStep(span / 8);
    for (let tm = Math.ceil(lo / step) * step; tm <= lo + span; tm += step) { const x = X(tm); c.fillRect(x, y, 1, 4); c.fillText(fmt(tm, 'ns'), x + 2, y + 4); }
  }
  function markerLines(c, marks, X, top, bottom) {
    c.font = '10px system-ui, sans-serif';
    c.textBaseline = 'top';
    let lastLabelX = -1e9;
    for (const m of marks) {
      const x = X(m.time);
      c.strokeStyle = '#2f6fb0'; c.lineWidth = 1; c.setLineDash([3, 2]);
      c.beginPath(); c.moveTo(x + 0.5, top - 4); c.lineTo(x + 0.5, bottom); c.stroke();
      c.setLineDash([]);
      if (x - lastLabelX > 90) { c.fillStyle = '#2f6fb0'; c.fillText(m.text.slice(0, 22), x + 2, 2); lastLabelX = x; }
    }
  }
  function timeDrag(cv, geom, onRange, onClick) {
    let drag = null;
    const timeAt = (ev) => { const g = geom(), r = cv.getBoundingClientRect(), lo = g.lo || 0; return Math.max(lo, Math.min(lo + g.span, lo + ((ev.clientX - r.left - g.LABEL) / g.plotW) * g.span)); };
    cv.addEventListener('mousedown', (ev) => { $('tip').hidden = true; if (geom()) drag = { from: timeAt(ev), x: ev.clientX }; });
    cv.addEventListener('mouseup', (ev) => {
      if (!drag) return;
      const a = drag.from, b = timeAt(ev), moved = Math.abs(ev.clientX - drag.x) > 3;
      drag = null;
      if (moved) onRange(Math.min(a, b), Math.max(a, b));
      else if (onClick) onClick(b, ev);
    });
  }

  // ---------------------------------------------------------------- samples' timeline
  // A sampled tree with its samples' times: a lane per thread, a tick per sample. A time range
  // (dragged, a phase between markers picked or clicked) makes the tree of the samples in it: a
  // node's count is its samples in the range, its metrics its own scaled by the same fraction
  // (the timeline keeps each sample's time and context, not its weights).
  function rangeValues(P, range) {
    const [lo, hi] = range, calls = new Float64Array(P.nodes);
    for (const t of P.timeline) for (let i = 0; i < t.times.length; i++) if (t.times[i] >= lo && t.times[i] <= hi) calls[t.nodes[i]]++;
    const base = P.base.map((b) => { const o = new Float64Array(P.nodes); for (let i = 0; i < P.nodes; i++) if (calls[i] && P.calls[i]) o[i] = (b[i] * calls[i]) / P.calls[i]; return o; });
    return { calls, base };
  }
  // The run's phases: from its start to the first marker (with `fromStart`), between markers, from
  // the last to the end. Marks: {time, text}.
  function phasesOf(marks, end, fromStart = true) {
    const ms = marks.slice().sort((a, b) => a.time - b.time), out = [];
    if (!ms.length) return out;
    if (fromStart && ms[0].time > 0) out.push({ lo: 0, hi: ms[0].time, label: 'from the start to ' + ms[0].text });
    ms.forEach((m, k) => { const next = ms[k + 1]; out.push({ lo: m.time, hi: next ? next.time : end, label: 'from ' + m.text + (next ? ' to ' + next.text : ' to the end') }); });
    return out;
  }
  let smGeom = null;
  function samplesEnd(P) {
    let end = 1;
    for (const t of P.timeline) if (t.times.length) end = Math.max(end, t.times[t.times.length - 1]);
    for (const m of RUNS[P.run].marks) end = Math.max(end, m.time);
    return end;
  }
  function drawSamples() {
    const box = $('samples-box');
    const P = state.profile === 'diff' ? null : profileForNames();
    box.hidden = !P || !P.timeline;
    if (box.hidden) { smGeom = null; return; }
    const marks = RUNS[P.run].marks, span = samplesEnd(P);
    const phases = phasesOf(marks, span);
    const ph = $('phase');
    if (ph.dataset.for !== P.run + '/' + P.tree) {
      ph.textContent = '';
      ph.append(el('option', { value: '' }, marks.length ? 'whole run' : 'whole run (no markers)'));
      for (const x of phases) ph.append(el('option', { value: x.lo + ':' + x.hi }, x.label));
      ph.dataset.for = P.run + '/' + P.tree;
    }
    ph.value = state.range && [...ph.options].some((o) => o.value === state.range.join(':')) ? state.range.join(':') : '';
    const lanes = P.threads.map((t, k) => k).filter((k) => P.timeline[k].times.length);
    const cv = $('samples');
    const LABEL = 170, ROW = 14, TOP = 16, AXIS = 18;
    const H = TOP + Math.max(1, lanes.length) * ROW + AXIS, { c, W } = timelineCanvas(cv, H);
    const plotW = W - LABEL - 10, X = (tm) => LABEL + (tm / span) * plotW;
    smGeom = { LABEL, plotW, span };
    const [lo, hi] = state.range || [-Infinity, Infinity];
    if (state.range) { c.fillStyle = 'rgba(47,111,176,0.12)'; c.fillRect(X(lo), TOP, Math.max(1, X(hi) - X(lo)), lanes.length * ROW); }
    let total = 0, inRange = 0, dropped = 0;
    lanes.forEach((k, r) => {
      const t = P.timeline[k], y = TOP + r * ROW + 2;
      dropped += t.dropped;
      for (let i = 0; i < t.times.length; i++) {
        const tm = t.times[i], on = tm >= lo && tm <= hi;
        c.fillStyle = on ? (k === state.thread || state.thread < 0 ? '#2f6fb0' : '#8fb1d6') : '#d5dbe1';
        c.fillRect(X(tm), y, 1, ROW - 4);
        total++; if (on) inRange++;
      }
      c.fillStyle = '#3b4652'; c.textBaseline = 'middle'; c.font = '10px system-ui, sans-serif';
      const name = P.threads[k].name;
      c.fillText(name.length > 28 ? name.slice(0, 27) + '…' : name, 4, TOP + r * ROW + ROW / 2);
    });
    markerLines(c, marks, X, TOP, TOP + lanes.length * ROW);
    timeAxis(c, X, span, H - AXIS);
    const msg = $('samples-msg');
    msg.textContent = (state.range ? plural(inRange, 'sample') + ' of ' + total.toLocaleString('en-US') + ' from ' + fmt(lo, 'ns') + ' to ' + fmt(hi, 'ns') + ': the tree is theirs (metrics scaled per context)' : plural(total, 'sample') + ' on ' + plural(lanes.length, 'thread')) +
      (dropped ? ' · ' + plural(dropped, 'later sample') + ' over the per-thread limit are in the tree only' : '') + ' · drag to select a time range' + (marks.length ? ', click between markers for a phase' : '');
    cv.dataset.samples = total; cv.dataset.inRange = inRange;
  }
  function setRange(r) { state.range = r; state.zoom = 0; render(); }
  timeDrag($('samples'), () => smGeom, (a, b) => setRange([a, b]), (t) => {
    const P = profileForNames(), x = phasesOf(RUNS[P.run].marks, samplesEnd(P)).find((p) => t >= p.lo && t <= p.hi);
    if (x) setRange([x.lo, x.hi]);
  });
  $('phase').addEventListener('change', (e) => setRange(e.target.value ? e.target.value.split(':').map(Number) : null));
  $('range-clear').addEventListener('click', () => setRange(null));

  // ---------------------------------------------------------------- flame graph
  const FRAME_H = 17, MAX_ROWS = 1500;
  const canvas = $('flame'), ctx = canvas.getContext('2d');
  let drawn = { node: new Int32Array(0), x: new Float32Array(0), w: new Float32Array(0), row: new Int32Array(0), count: 0, rows: 0 };
  let matchFn = null;

  function hashColor(name) {
    // Classic warm flame colours, stable per name.
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
    const r = 205 + (h & 31), g = 90 + ((h >>> 5) & 127), b = 40 + ((h >>> 12) & 31);
    return 'rgb(' + r + ',' + g + ',' + b + ')';
  }
  function heat(t) {
    // 0 → blue, 0.5 → pale, 1 → red.
    t = Math.max(0, Math.min(1, t));
    const lerp = (a, b, u) => Math.round(a + (b - a) * u);
    return t < 0.5
      ? 'rgb(' + lerp(64, 235, t * 2) + ',' + lerp(118, 235, t * 2) + ',' + lerp(186, 230, t * 2) + ')'
      : 'rgb(' + lerp(235, 200, (t - 0.5) * 2) + ',' + lerp(235, 52, (t - 0.5) * 2) + ',' + lerp(230, 43, (t - 0.5) * 2) + ')';
  }
  // The shorter forms of a method's name, longest first: the name;
  // Class.method(Type,Type) (packages dropped, of the parameters' types too); Class.method(…);
  // method(…). Names are cut only at the dots before the parameter list, never inside it.
  // Names that are not a method (a thread, "(pruned)") are cut at their last dot.
  function nameForms(name) {
    const open = name.indexOf('(');
    const qual = open > 0 ? name.slice(0, open) : name;
    const parts = qual.split('.');
    const close = open > 0 ? name.lastIndexOf(')') : -1;
    if (open <= 0 || close < open) return parts.length > 2 ? [name, parts.slice(-2).join('.'), parts[parts.length - 1]] : parts.length > 1 ? [name, parts[1]] : [name];
    const params = name.slice(open + 1, close).split(',').map((t) => t.trim().split('.').pop()).join(',');
    const simple = (k) => parts.slice(-k).join('.');
    const forms = [name, simple(2) + '(' + params + ')' + name.slice(close + 1)];
    if (params) forms.push(simple(2) + '(…)');
    forms.push(simple(1) + (params ? '(…)' : '()'));
    return forms.filter((f, k) => forms.indexOf(f) === k);
  }
  // The longest form of `name` that fits a frame `w` pixels wide (the method's name cut with an
  // ellipsis when none does), or '' for a frame too narrow for any text.
  function shortName(name, w, ctx2) {
    const avail = w - 6;
    if (avail < 14) return '';
    const forms = nameForms(name);
    for (const f of forms) if (ctx2.measureText(f).width <= avail) return f;
    let s = forms[forms.length - 1];
    const open = s.indexOf('(');
    if (open > 0) s = s.slice(0, open);
    while (s.length > 1 && ctx2.measureText(s + '…').width > avail) s = s.slice(0, -1);
    return s.length > 1 ? s + '…' : '';
  }

  function drawFlame() {
    const V = VIEW, M = metric(), W = widthMetric(M);
    const width = values(V, W).cum;
    const val = values(V, M);
    const diff = state.profile === 'diff' ? diffValues(V, W) : null;
    const z = state.zoom < V.n ? state.zoom : 0;
    const total = width[z];
    const boxW = Math.max(300, $('flame-box').clientWidth - 2);
    // Ancestors of the zoomed node are drawn full width above it.
    const anc = [];
    for (let a = V.parent[z]; a >= 0; a = V.parent[a]) anc.unshift(a);
    const cap = Math.min(V.n, 400000);
    const node = new Int32Array(cap), xs = new Float32Array(cap), ws = new Float32Array(cap), rows = new Int32Array(cap);
    let count = 0, maxRow = 0, truncated = false;
    const push = (n, x, w, row) => { if (count < cap) { node[count] = n; xs[count] = x; ws[count] = w; rows[count] = row; count++; if (row > maxRow) maxRow = row; } };
    anc.forEach((a, r) => push(a, 0, boxW, r));
    if (total > 0) {
      const stack = [z, 0, anc.length];
      const scale = boxW / total;
      while (stack.length) {
        const row = stack.pop(), x = stack.pop(), n = stack.pop();
        const w = width[n] * scale;
        push(n, x, w, row);
        if (row + 1 >= MAX_ROWS) { if (V.kidStart[n + 1] > V.kidStart[n]) truncated = true; continue; }
        let cx = x;
        const kids = [];
        for (let k = V.kidStart[n]; k < V.kidStart[n + 1]; k++) {
          const c = V.kids[k], cw = width[c] * scale;
          if (cw >= 0.35) kids.push(c, cx, row + 1);
          if (cw > 0) cx += cw;
        }
        for (let k = kids.length - 3; k >= 0; k -= 3) stack.push(kids[k], kids[k + 1], kids[k + 2]);
      }
    } else push(z, 0, boxW, anc.length);
    const nrows = maxRow + 1;
    const dpr = window.devicePixelRatio || 1;
    const hpx = nrows * FRAME_H + 4;
    canvas.width = Math.round(boxW * dpr); canvas.height = Math.round(hpx * dpr);
    canvas.style.width = boxW + 'px'; canvas.style.height = hpx + 'px';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, boxW, hpx);
    ctx.font = '11px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'middle';
    const yOf = (row) => (state.mode === 'flame' ? hpx - 2 - (row + 1) * FRAME_H : 2 + row * FRAME_H);
    // Ratio colours: the 5th–95th percentile of the drawn frames' values.
    let lo = 0, hi = 1;
    if (!M.linear && !diff) {
      const vs = [];
      for (let i = 0; i < count; i++) { const v = val.cum[node[i]]; if (isFinite(v)) vs.push(v); }
      vs.sort((a, b) => a - b);
      if (vs.length) { lo = vs[Math.floor(vs.length * 0.05)]; hi = vs[Math.floor((vs.length - 1) * 0.95)]; }
      if (hi <= lo) hi = lo + 1;
    }
    let maxDelta = 0;
    const changed = diff ? changedSet(V) : null;
    if (diff) for (let i = 0; i < count; i++) { const n = node[i]; maxDelta = Math.max(maxDelta, Math.abs(diff.b.self[n] - diff.a.self[n])); }
    let matched = 0;
    const labels = []; // drawn frame index, text: the frames wide enough for a label (a few thousand at most)
    for (let i = 0; i < count; i++) {
      const n = node[i], x = xs[i], w = ws[i], y = yOf(rows[i]);
      const name = V.names[V.cons[n]];
      let fill;
      const hit = matchFn && matchFn(name);
      if (diff) {
        const d = diff.b.self[n] - diff.a.self[n];
        fill = maxDelta > 0 && d !== 0 ? heat(0.5 + 0.5 * (d / maxDelta)) : '#e6e6e2';
      } else if (!M.linear) fill = isFinite(val.cum[n]) ? heat((val.cum[n] - lo) / (hi - lo)) : '#d9d9d9';
      else fill = hashColor(name);
      if (matchFn && !hit) fill = '#d4d4d0';
      if (hit) { fill = '#c0399b'; matched++; }
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, Math.max(w - 0.5, 0.35), FRAME_H - 1);
      if (changed && changed.has(n) && w >= 2) { ctx.strokeStyle = '#1d232a'; ctx.lineWidth = 1.5; ctx.strokeRect(x + 0.75, y + 0.75, Math.max(w - 2, 0.5), FRAME_H - 2.5); }
      if (w >= 20) {
        const s = shortName(name, w, ctx);
        if (s) { ctx.fillStyle = hit ? '#fff' : '#1d232a'; ctx.fillText(s, x + 3, y + FRAME_H / 2); labels.push(i, s); }
      }
    }
    drawn = { node, x: xs, w: ws, row: rows, count, rows: nrows, yOf, boxW, labels };
    canvas.dataset.drawn = count;
    canvas.dataset.zoom = V.names[V.cons[z]];
    canvas.dataset.metric = M.label;
    canvas.dataset.matched = matched;
    // Legend: what width and colour mean.
    const lg = $('legend');
    lg.textContent = 'Width: total ' + W.label + (state.profile === 'diff' ? ' after' : '') + ' · ';
    if (diff) {
      const D = diffProfile();
      if (D.note) lg.append(D.note + ' · ');
      if (D.A.tree !== D.B.tree) lg.append('A\'s ' + treeLabel(D.A.tree) + ' against B\'s ' + treeLabel(D.B.tree) + ' · ');
      if (state.sameFrames && (D.A.hidden.size || D.B.hidden.size)) lg.append('frames one run does not record are left out of both · ');
      lg.append('Comparing ' + diffModeText(diff, W) + ' · ');
      lg.dataset.diffValues = diff.share ? 'share' : 'absolute';
      lg.append('Colour: change in self ' + W.label + (diff.share ? ' share' : '') + ' (after − before):');
      lg.append(el('span', { class: 'swatch', style: 'background:' + heat(0) }), 'shrank', el('span', { class: 'swatch', style: 'background:' + heat(1) }), 'grew',
        el('span', { class: 'swatch', style: 'background:#fff;border:1.5px solid #1d232a' }), 'changed (see Diff tab)');
    } else if (!M.linear) {
      lg.append('Colour: ' + M.label + ' of the context (total):');
      lg.append(el('span', { class: 'swatch', style: 'background:' + heat(0) }), fmt(lo, 'ratio'), el('span', { class: 'swatch', style: 'background:' + heat(1) }), fmt(hi, 'ratio'));
    } else lg.append('Colour: by method name' + (matchFn ? ', matches in magenta' : ''));
    if (truncated) lg.append(' · frames deeper than ' + MAX_ROWS + ' levels are not drawn: click a deep frame to zoom');
    // Breadcrumbs.
    const cr = $('crumbs');
    cr.textContent = '';
    const path = anc.concat([z]);
    path.forEach((a, k) => {
      if (k) cr.append(el('span', { class: 'sep' }, '›'));
      cr.append(el('a', { onclick: () => { state.zoom = a; render(); }, title: V.names[V.cons[a]] }, shortLabel(V.names[V.cons[a]])));
    });
    updateSearchMsg();
  }
  const shortLabel = (s) => { const f = nameForms(s); return f[Math.min(1, f.length - 1)]; };

  function frameAt(px, py) {
    const d = drawn;
    for (let i = d.count - 1; i >= 0; i--) {
      const y = d.yOf(d.row[i]);
      if (py >= y && py < y + FRAME_H && px >= d.x[i] && px < d.x[i] + Math.max(d.w[i], 1)) return d.node[i];
    }
    return -1;
  }
  function tipFor(n, ev) {
    const V = VIEW, M = metric(), W = widthMetric(M), v = values(V, M), w = values(V, W);
    const tip = $('tip');
    tip.textContent = '';
    tip.append(el('b', null, wrapName(V.names[V.cons[n]])), el('br'));
    const share = w.cum[0] > 0 ? w.cum[n] / w.cum[0] : NaN;
    tip.append(M.label + ': total ' + fmt(v.cum[n], M.unit) + ', self ' + fmt(v.self[n], M.unit) + (M.linear ? ' (' + pct(share) + ' of all)' : ''), el('br'));
    tip.append(V.slotNames[0] + ': ' + group(V.self[0][n]));
    if (V.before) {
      const d = diffValues(V, W), a = d.a, b = d.b;
      tip.append(el('br'), W.label + (d.share ? ' share' : '') + ' before → after: self ' + fmt(a.self[n], d.unit) + ' → ' + fmt(b.self[n], d.unit) + ', total ' + fmt(a.cum[n], d.unit) + ' → ' + fmt(b.cum[n], d.unit));
    }
    showTip(ev);
  }
  function showTip(ev) {
    const tip = $('tip');
    tip.hidden = false;
    const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    const y = ev.clientY + 16 + tip.offsetHeight > window.innerHeight ? ev.clientY - tip.offsetHeight - 8 : ev.clientY + 16;
    tip.style.left = x + 'px'; tip.style.top = y + 'px';
  }
  canvas.addEventListener('mousemove', (ev) => {
    const r = canvas.getBoundingClientRect();
    const n = frameAt(ev.clientX - r.left, ev.clientY - r.top);
    canvas.style.cursor = n >= 0 ? 'pointer' : 'default';
    if (n >= 0) tipFor(n, ev); else $('tip').hidden = true;
  });
  canvas.addEventListener('mouseleave', () => { $('tip').hidden = true; });
  canvas.addEventListener('click', (ev) => {
    // The graph is redrawn under the pointer: the tooltip of the frame clicked would describe
    // whatever is drawn there now, so it goes until the pointer moves again.
    $('tip').hidden = true;
    const r = canvas.getBoundingClientRect();
    const n = frameAt(ev.clientX - r.left, ev.clientY - r.top);
    if (n < 0) return;
    state.zoom = n;
    if (n > 0) state.picked = VIEW.cons[n];
    render();
  });

  // ---------------------------------------------------------------- search
  function setSearch(text) {
    state.search = text.trim();
    matchFn = null;
    if (state.search) {
      let re;
      const m = /^\/(.*)\/([a-z]*)$/.exec(state.search);
      try { re = m ? new RegExp(m[1], m[2].includes('i') ? 'i' : '') : new RegExp(escapeRe(state.search), 'i'); } catch (e) { $('search-msg').textContent = 'bad regex: ' + e.message; return; }
      const cache = new Map();
      matchFn = (name) => { let r = cache.get(name); if (r === undefined) { r = re.test(name); cache.set(name, r); } return r; };
    }
  }
  // Matched share: the total of the outermost matching contexts under the zoomed node.
  function updateSearchMsg() {
    const msg = $('search-msg');
    if (!matchFn) { msg.textContent = ''; return; }
    const V = VIEW, W = widthMetric(metric()), w = values(V, W).cum;
    const z = state.zoom < V.n ? state.zoom : 0;
    let sum = 0, frames = 0;
    const stack = [z];
    const methods = new Set();
    while (stack.length) {
      const n = stack.pop();
      if (n !== z || n > 0) {
        if (matchFn(V.names[V.cons[n]])) { sum += w[n]; frames++; methods.add(V.cons[n]); continue; }
      }
      for (let k = V.kidStart[n]; k < V.kidStart[n + 1]; k++) stack.push(V.kids[k]);
    }
    msg.textContent = 'matched ' + pct(w[z] > 0 ? sum / w[z] : 0) + ' of ' + W.label + ' (' + plural(frames, 'context') + ', ' + plural(methods.size, 'method') + ')';
    msg.dataset.share = w[z] > 0 ? sum / w[z] : 0;
  }

  // ---------------------------------------------------------------- per-method aggregate (xprof, xarc)
  // The rules of reports/src/aggregate.rs: self sums every node of the method; total sums the cum
  // of its outermost nodes only (no ancestor of the same method), so recursion is not counted twice.
  function aggregate(V) {
    if (V.agg) return V.agg;
    const S = V.self.length, NC = V.names.length;
    const calls = new Float64Array(NC), present = new Uint8Array(NC);
    const self = [], tot = [], selfB = [], totB = [];
    for (let s = 0; s < S; s++) { self.push(new Float64Array(NC)); tot.push(new Float64Array(NC)); if (V.before) { selfB.push(new Float64Array(NC)); totB.push(new Float64Array(NC)); } }
    const onPath = new Int32Array(NC);
    // Iterative DFS with exits, keeping how often each method is on the current path.
    const iter = new Int32Array(V.n);
    const path = [0];
    onPath[V.cons[0]]++;
    const visit = (n) => {
      const c = V.cons[n];
      present[c] = 1;
      for (let s = 0; s < S; s++) { self[s][c] += V.self[s][n]; if (V.before) selfB[s][c] += V.before.self[s][n]; }
      if (onPath[c] === 1) for (let s = 0; s < S; s++) { tot[s][c] += V.cum[s][n]; if (V.before) totB[s][c] += V.before.cum[s][n]; }
    };
    visit(0);
    iter[0] = V.kidStart[0];
    while (path.length) {
      const n = path[path.length - 1];
      if (iter[n] < V.kidStart[n + 1]) {
        const c = V.kids[iter[n]++];
        onPath[V.cons[c]]++;
        iter[c] = V.kidStart[c];
        path.push(c);
        visit(c);
      } else {
        path.pop();
        onPath[V.cons[n]]--;
      }
    }
    for (let i = 0; i < V.n; i++) calls[V.cons[i]] += V.self[0][i];
    const rows = [];
    for (let c = 0; c < NC; c++) if (present[c] && !(c === V.cons[0])) rows.push(c);
    V.agg = { rows, self, tot, selfB, totB };
    return V.agg;
  }

  // One method's stanza: callers, itself, callees (reports/src/xarc.rs), in one forward pass.
  function stanza(V, M) {
    const S = V.self.length;
    const hasM = new Uint8Array(V.n), lastCallee = new Int32Array(V.n).fill(-1);
    const row = () => ({ self: new Float64Array(S), cum: new Float64Array(S) });
    const me = row(), callers = new Map(), callees = new Map();
    const get = (map, c) => { let r = map.get(c); if (!r) { r = row(); map.set(c, r); } return r; };
    for (let n = 0; n < V.n; n++) {
      const p = V.parent[n], c = V.cons[n];
      if (p >= 0) {
        hasM[n] = V.cons[p] === M || hasM[p] ? 1 : 0;
        lastCallee[n] = c === M ? -1 : V.cons[p] === M ? n : lastCallee[p];
      }
      if (c === M) {
        for (let s = 0; s < S; s++) me.self[s] += V.self[s][n];
        if (!hasM[n]) for (let s = 0; s < S; s++) me.cum[s] += V.cum[s][n];
        if (p >= 0) {
          const r = get(callers, V.cons[p]);
          for (let s = 0; s < S; s++) { r.self[s] += V.self[s][n]; if (!hasM[n]) r.cum[s] += V.cum[s][n]; }
          // Work that re-enters M is in M's own total: not the callee's it came through.
          const lc = lastCallee[p];
          if (lc >= 0) { const r2 = get(callees, V.cons[lc]); for (let s = 0; s < S; s++) r2.cum[s] -= V.cum[s][n]; }
        }
      }
      if (p >= 0 && V.cons[p] === M) {
        const r = get(callees, c);
        for (let s = 0; s < S; s++) { r.self[s] += V.self[s][n]; if (c !== M) r.cum[s] += V.cum[s][n]; }
      }
    }
    return { me, callers, callees };
  }

  function drawXarc() {
    const box = $('xarc');
    const V = VIEW, c = state.picked;
    box.textContent = '';
    if (c < 0 || c >= V.names.length) { box.append(el('p', { class: 'hint' }, 'Click a frame or a method row to see its callers and callees.')); return; }
    const Ms = [metric()];
    if (Ms[0].single !== 0) Ms.push(METRICS.find((m) => m.single === 0));
    const st = stanza(V, c);
    const rowVal = (r, M, which) => { const src = which === 'self' ? r.self : r.cum; return M.fn((s) => src[s]); };
    const name = V.names[c];
    box.append(el('h3', null, wrapName(name)));
    const t = el('table');
    const M = Ms[0];
    box.append(el('p', { class: 'hint' }, M.label + ', self and total, and ' + V.slotNames[0] + ':'));
    t.append(el('colgroup', null, el('col', { class: 'name' }), el('col'), el('col'), el('col')));
    t.append(el('tr', null, el('th', { class: 'name' }, ''), el('th', null, 'self'), el('th', null, 'total'), el('th', null, V.slotNames[0])));
    const line = (cls, label, r, link) => {
      const tr = el('tr', { class: cls });
      tr.append(el('td', { class: 'name' }, link ? el('a', { onclick: () => { state.picked = link; drawXarc(); markPicked(); } }, wrapName(label)) : wrapName(label)));
      tr.append(el('td', null, fmt(rowVal(r, M, 'self'), M.unit)), el('td', null, fmt(rowVal(r, M, 'cum'), M.unit)), el('td', null, group(r.self[0])));
      t.append(tr);
    };
    const sorted = (map) => [...map.entries()].sort((a, b) => b[1].cum[M.single >= 0 ? M.single : 0] - a[1].cum[M.single >= 0 ? M.single : 0]);
    const callers = sorted(st.callers), callees = sorted(st.callees);
    t.append(el('tr', { class: 'section' }, el('td', { colspan: 4 }, 'called by (' + callers.length + ')')));
    for (const [p, r] of callers) line('caller', V.names[p], r, p);
    line('self', name, st.me, null);
    t.append(el('tr', { class: 'section' }, el('td', { colspan: 4 }, 'calls (' + callees.length + ')')));
    for (const [k, r] of callees) line('callee', V.names[k], r, k === c ? null : k);
    box.append(t);
    box.dataset.method = name;
    box.dataset.callers = callers.length;
    box.dataset.callees = callees.length;
    box.append(el('p', { class: 'hint' }, 'Totals count recursion once (as xarc.txt). Click a caller or callee to move to it; ',
      el('a', { onclick: () => { const n = firstNodeOf(V, c); if (n >= 0) { state.zoom = n; render(); } } }, 'zoom to its first context'), '.'));
  }
  const firstNodeOf = (V, c) => { for (let i = 0; i < V.n; i++) if (V.cons[i] === c) return i; return -1; };

  // ---------------------------------------------------------------- methods table (xprof)
  const methodSort = { col: null, asc: false };
  const MAX_TABLE_ROWS = 1000;
  function drawMethods() {
    const V = VIEW, A = aggregate(V);
    const cols = [];
    const text = (c) => V.names[c];
    cols.push({ head: 'Method', cls: 'name', key: (c) => text(c), show: (c) => wrapName(text(c)) });
    cols.push({ head: V.slotNames[0], key: (c) => A.self[0][c], show: (c) => group(A.self[0][c]) });
    for (const M of METRICS) {
      if (M.single === 0) continue;
      const f = (src, c) => M.fn((s) => src[s][c]);
      cols.push({ head: M.label + ' self', key: (c) => f(A.self, c), show: (c) => fmt(f(A.self, c), M.unit), M });
      cols.push({ head: M.label + ' total', key: (c) => f(A.tot, c), show: (c) => fmt(f(A.tot, c), M.unit), M });
    }
    if (methodSort.col === null) methodSort.col = Math.min(3, cols.length - 1);
    const filter = $('method-filter').value.trim().toLowerCase();
    let rows = A.rows.filter((c) => !filter || V.names[c].toLowerCase().includes(filter));
    const col = cols[Math.min(methodSort.col, cols.length - 1)];
    const keys = new Map(rows.map((c) => [c, col.key(c)]));
    const num = (v) => (typeof v === 'number' && isFinite(v) ? v : -Infinity);
    rows.sort((a, b) => {
      const x = keys.get(a), y = keys.get(b);
      const d = typeof x === 'string' ? (x < y ? -1 : x > y ? 1 : 0) : num(x) - num(y);
      return methodSort.asc ? d : -d;
    });
    const t = $('methods');
    t.textContent = '';
    const tr = el('tr');
    cols.forEach((cdef, k) => {
      tr.append(el('th', {
        class: (cdef.cls || '') + (k === methodSort.col ? ' sorted' + (methodSort.asc ? ' asc' : '') : ''),
        onclick: () => { methodSort.asc = methodSort.col === k ? !methodSort.asc : k === 0; methodSort.col = k; drawMethods(); },
      }, cdef.head));
    });
    t.append(el('thead', null, tr));
    const body = el('tbody');
    for (const c of rows.slice(0, MAX_TABLE_ROWS)) {
      const r = el('tr', { 'data-c': c, class: c === state.picked ? 'picked' : '', onclick: () => { state.picked = c; showTab('tree'); } });
      for (const cdef of cols) r.append(el('td', { class: cdef.cls || '' }, cdef.show(c)));
      body.append(r);
    }
    t.append(body);
    $('methods-msg').textContent = plural(rows.length, 'method') + (rows.length > MAX_TABLE_ROWS ? ', the first ' + MAX_TABLE_ROWS + ' shown' : '') + '; sorted by ' + col.head + '. Click a header to sort, a row for its callers and callees.';
    t.dataset.sortedBy = col.head;
  }
  function markPicked() { /* the methods table is redrawn when shown */ }

  // ---------------------------------------------------------------- diff table
  // Contexts whose self changed by at least the threshold: a percentage of the larger total, or,
  // comparing shares, points of share.
  function changedSet(V) {
    const W = widthMetric(metric()), d = diffValues(V, W);
    const key = $('diff-threshold').value + '|' + metric().text + '|' + d.share;
    if (V.changedFor === key) return V.changed;
    const a = d.a, b = d.b;
    const limit = (parseFloat($('diff-threshold').value) || 0) / 100 * Math.max(Math.abs(a.cum[0]), Math.abs(b.cum[0]));
    const set = new Set();
    for (let i = 1; i < V.n; i++) if (Math.abs(b.self[i] - a.self[i]) >= limit && b.self[i] !== a.self[i]) set.add(i);
    V.changed = set; V.changedFor = key;
    return set;
  }
  function pathOf(V, n) { const p = []; for (let a = n; a > 0; a = V.parent[a]) p.unshift(V.names[V.cons[a]]); return p; }
  function drawDiff() {
    if (state.profile !== 'diff') return;
    const V = VIEW, W = widthMetric(metric());
    const d = diffValues(V, W), a = d.a, b = d.b, unit = d.unit;
    const set = changedSet(V);
    const ids = [];
    for (let i = 1; i < V.n; i++) if (a.self[i] !== b.self[i] || a.cum[i] !== b.cum[i]) ids.push(i);
    ids.sort((x, y) => Math.abs(b.self[y] - a.self[y]) - Math.abs(b.self[x] - a.self[x]) || Math.abs(b.cum[y] - a.cum[y]) - Math.abs(b.cum[x] - a.cum[x]));
    const t = $('diff');
    t.textContent = '';
    const what = d.share ? ' share' : '';
    t.append(el('thead', null, el('tr', null, ...['Context (' + RUNS[0].label + ' → ' + RUNS[1].label + ')', 'self' + what + ' before', 'self' + what + ' after', 'Δ self' + what, 'Δ self %', 'total' + what + ' before', 'total' + what + ' after', 'Δ total' + what, 'Δ total %']
      .map((h, k) => el('th', { class: k ? '' : 'name' }, h)))));
    const body = el('tbody');
    const rel = (x, y) => (x === 0 ? (y === 0 ? '0%' : 'new') : (y === 0 ? 'gone' : pct((y - x) / x)));
    const cls = (v) => (v > 0 ? 'grew' : v < 0 ? 'shrank' : '');
    for (const i of ids.slice(0, MAX_TABLE_ROWS)) {
      const p = pathOf(V, i);
      const ds = b.self[i] - a.self[i], dc = b.cum[i] - a.cum[i];
      body.append(el('tr', { class: set.has(i) ? 'changed' : '', 'data-node': i, title: p.join(' → '), onclick: () => { state.zoom = V.parent[i] >= 0 ? V.parent[i] : 0; state.picked = V.cons[i]; showTab('tree'); } },
        el('td', { class: 'name' }, wrapName(p.length > 3 ? '… → ' + p.slice(-3).join(' → ') : p.join(' → '))),
        el('td', null, fmt(a.self[i], unit)), el('td', null, fmt(b.self[i], unit)), el('td', { class: cls(ds) }, (ds > 0 ? '+' : '') + fmt(ds, unit)), el('td', { class: cls(ds) }, rel(a.self[i], b.self[i])),
        el('td', null, fmt(a.cum[i], unit)), el('td', null, fmt(b.cum[i], unit)), el('td', { class: cls(dc) }, (dc > 0 ? '+' : '') + fmt(dc, unit)), el('td', { class: cls(dc) }, rel(a.cum[i], b.cum[i]))));
    }
    t.append(body);
    const D = diffProfile();
    $('diff-msg').textContent = plural(ids.length, 'context') + (ids.length === 1 ? ' differs' : ' differ') + ', ' + set.size + ' marked changed (●). Comparing ' + diffModeText(d, W) + '.' + (D.note ? ' Note: ' + D.note + '.' : '');
    $('diff-msg').dataset.diffValues = d.share ? 'share' : 'absolute';
    $('diff-msg').dataset.totals = d.ta + ' ' + d.tb;
    t.dataset.changed = set.size;
  }

  // ---------------------------------------------------------------- controls and tabs
  const TABS = [];
  if (PROFILES.length) TABS.push(['tree', 'Call tree'], ['methods', 'Methods']);
  const TWO_RUNS = treesOf(0).length > 0 && treesOf(1).length > 0;
  if (TWO_RUNS) TABS.push(['diff', 'Diff']);
  if (DATA.trace) TABS.push(['trace', 'Trace']);
  // Text reports written beside a run (the bottleneck search's), as they are.
  const REPORTS = RUNS.flatMap((r) => (r.reports || []).map((x) => ({ run: r.label, title: x.title, text: x.text })));
  if (REPORTS.length) {
    TABS.push(['report', 'Report']);
    for (const r of REPORTS) $('reports').append(el('h2', {}, r.title + (RUNS.length > 1 ? ' · ' + r.run : '')), el('pre', { class: 'report' }, r.text));
  }
  for (const [id, label] of TABS) $('tabs').append(el('button', { type: 'button', id: 'tabbtn-' + id, role: 'tab', onclick: () => showTab(id) }, label));
  function showTab(id) {
    state.tab = id;
    for (const sec of document.querySelectorAll('main > section.tab')) sec.hidden = sec.id !== 'tab-' + id;
    for (const [t] of TABS) $('tabbtn-' + t).classList.toggle('on', t === id);
    const tree = id !== 'trace' && id !== 'report';
    for (const box of ['metric', 'thread']) $(box).parentElement.hidden = !tree;
    $('controls').hidden = id === 'report';
    $('profile-box').hidden = !tree || !TWO_RUNS;
    showTreeControls();
    render();
  }
  // The tree and diff selectors show where they have a choice to offer.
  function showTreeControls() {
    const tree = state.tab !== 'trace' && state.tab !== 'report';
    $('tree-box').hidden = !tree || $('tree').options.length < 2;
    $('diff-box').hidden = !tree || state.profile !== 'diff';
  }
  function fillTreeSelect() {
    const run = state.profile === 'diff' ? 0 : state.profile, s = $('tree');
    s.textContent = '';
    for (const P of treesOf(run)) {
      const B = state.profile === 'diff' ? treeOf(1, P.tree) : P;
      s.append(el('option', { value: P.tree }, treeLabel(P.tree) + (B.tree !== P.tree ? ' (against B\'s ' + treeLabel(B.tree) + ')' : '')));
    }
    s.value = treeOf(run, state.tree).tree;
  }
  // A new tree or profile: the metrics, threads and range of the new one.
  function treeChanged() {
    state.zoom = 0; state.thread = -1; state.picked = -1; state.range = null; state.metric = 0;
    METRICS = treeMetrics(profileForNames());
    fillTreeSelect(); fillMetricSelect(); fillThreadSelect(); showTreeControls();
    render();
  }

  function fillMetricSelect() {
    const s = $('metric');
    s.textContent = '';
    METRICS.forEach((M, k) => s.append(el('option', { value: k }, M.label + (M.linear ? '' : ' (ratio)'))));
    s.value = Math.min(state.metric, METRICS.length - 1);
  }
  function fillThreadSelect() {
    const P = profileForNames(), s = $('thread');
    s.textContent = '';
    s.append(el('option', { value: -1 }, 'all threads, merged'));
    P.threads.forEach((t, k) => s.append(el('option', { value: k }, t.name + ' (' + plural(P.threadEnds[k] - t.root, 'context') + ')')));
    s.value = state.thread;
  }
  if (PROFILES.length) {
    $('source').textContent = RUNS.map((r) => r.label).join('  vs  ');
    const ps = $('profile');
    RUNS.forEach((r, k) => { if (treesOf(k).length) ps.append(el('option', { value: k }, (k ? 'B: ' : 'A: ') + r.label)); });
    if (TWO_RUNS) {
      ps.append(el('option', { value: 'diff' }, 'diff: B against A'));
      state.profile = 'diff'; ps.value = 'diff';
      // The first kind of tree both runs have (A's first when none): the same whichever run is A.
      const common = treesOf(0).find((P) => treesOf(1).some((Q) => Q.tree === P.tree));
      state.tree = (common || treesOf(0)[0]).tree;
      METRICS = treeMetrics(profileForNames());
    }
    $('diff-values').value = state.diffValues;
    fillTreeSelect();
    fillMetricSelect();
    fillThreadSelect();
  }
  if (DATA.trace && !PROFILES.length) $('source').textContent = DATA.trace.label + (DATA.compareTrace ? '  vs  ' + DATA.compareTrace.label : '');
  $('profile').addEventListener('change', (e) => { state.profile = e.target.value === 'diff' ? 'diff' : +e.target.value; treeChanged(); });
  $('tree').addEventListener('change', (e) => { state.tree = e.target.value; treeChanged(); });
  $('diff-values').addEventListener('change', (e) => { state.diffValues = e.target.value; render(); });
  $('diff-same-frames').addEventListener('change', (e) => { state.sameFrames = e.target.checked; render(); });
  $('metric').addEventListener('change', (e) => { state.metric = +e.target.value; render(); });
  $('thread').addEventListener('change', (e) => { state.thread = +e.target.value; state.zoom = 0; render(); });
  $('mode-flame').addEventListener('click', () => { state.mode = 'flame'; $('mode-flame').classList.add('on'); $('mode-icicle').classList.remove('on'); render(); });
  $('mode-icicle').addEventListener('click', () => { state.mode = 'icicle'; $('mode-icicle').classList.add('on'); $('mode-flame').classList.remove('on'); render(); });
  $('reset-zoom').addEventListener('click', () => { state.zoom = 0; render(); });
  let searchTimer = 0;
  $('search').addEventListener('input', (e) => { clearTimeout(searchTimer); searchTimer = setTimeout(() => { setSearch(e.target.value); render(); }, 120); });
  $('method-filter').addEventListener('input', () => drawMethods());
  $('diff-threshold').addEventListener('input', () => render());
  function addExpr() {
    const text = $('expr').value.trim();
    const msg = $('expr-msg');
    msg.classList.remove('error');
    if (!text) return;
    const where = [];
    let err = null;
    if (PROFILES.length) { try { makeMetric(text, text, profileForNames().slotNames, profileForNames().slotUnits); where.push('call tree'); } catch (e) { err = e.message; } }
    if (DATA.trace) { try { makeMetric(text, text, TRACE.slotNames, TRACE.slotUnits); where.push('trace'); } catch (e) { err = err || e.message; } }
    if (!where.length) { msg.textContent = err; msg.classList.add('error'); return; }
    if (!state.userExprs.includes(text)) state.userExprs.push(text);
    if (PROFILES.length) {
      METRICS = treeMetrics(profileForNames());
      const k = METRICS.findIndex((M) => M.text === text);
      if (k >= 0) state.metric = k;
      fillMetricSelect();
    }
    if (DATA.trace) { traceMetrics(); fillTraceMetricSelects(); }
    msg.textContent = 'added `' + text + '` to the ' + where.join(' and ') + ' metrics';
    render();
  }
  $('expr-add').addEventListener('click', addExpr);
  $('expr').addEventListener('keydown', (e) => { if (e.key === 'Enter') addExpr(); });
  window.addEventListener('resize', () => render());

  function render() {
    if (!state.tab) return;
    if (state.tab === 'trace') { drawTrace(); return; }
    if (state.tab === 'report') return;
    VIEW = currentView();
    if (!timings.view) timings.view = performance.now();
    if (state.zoom >= VIEW.n) state.zoom = 0;
    if (state.tab === 'tree') { drawSamples(); drawFlame(); drawXarc(); }
    else if (state.tab === 'methods') drawMethods();
    else if (state.tab === 'diff') drawDiff();
  }

  // ---------------------------------------------------------------- quantum trace
  let TRACE = null, TRACE_B = null;
  // A trace's columns decoded into typed arrays (the page's trace, and a second run's to compare).
  function loadTrace(t) {
    for (const k of ['vp', 'thread', 'start', 'duration', 'yielded', 'callee']) t[k] = unpack(t[k], Float64Array);
    t.deltas = t.deltas.map((d) => unpack(d, Float64Array));
    const n = t.start.length;
    const slotNames = t.counters.slice();
    if (!slotNames.length) slotNames.push('real-time');
    const T = {
      t, n, slotNames, slotUnits: slotNames.map((s) => (s === 'real-time' || s === 'cpu-time' || s === 'task-clock' ? 'ns' : '')),
      vp: Int32Array.from(t.vp), thread: Int32Array.from(t.thread), start: Float64Array.from(t.start), dur: Float64Array.from(t.duration),
      yielded: Uint8Array.from(t.yielded), callee: Int32Array.from(t.callee),
      slots: [t.duration].concat(t.deltas),
      threads: new Map(t.threads.map((x) => [x.id, x])), methods: new Map(t.methods),
      end: 0, inSet: new Uint8Array(n), after: new Uint8Array(n), metrics: [],
    };
    for (let i = 0; i < n; i++) T.end = Math.max(T.end, T.start[i] + T.dur[i]);
    for (const m of t.markers) T.end = Math.max(T.end, m.time);
    t.start = t.duration = t.deltas = null;
    return T;
  }
  if (DATA.trace) TRACE = loadTrace(DATA.trace);
  if (DATA.trace && DATA.compareTrace) TRACE_B = loadTrace(DATA.compareTrace);
  const kindIn = (T, id) => (T.threads.get(id) || { kind: 'app' }).kind;
  const kindOf = (id) => kindIn(TRACE, id);
  const threadName = (id) => (TRACE.threads.get(id) || { name: 'thread ' + id }).name;
  // The metrics of trace T (the page's by default): its counters, IPC and misses per 1000
  // instructions, cpu-time / real-time, and the expressions added (`hpm trace` has the same but
  // the added ones: reports/src/quantum/sets.rs).
  function traceMetrics(T = TRACE) {
    const out = [];
    T.slotNames.forEach((s) => out.push(makeMetric(s, '[' + s + ']', T.slotNames, T.slotUnits)));
    for (const [label, text] of standardComputed(T.slotNames)) out.push(makeMetric(label, text, T.slotNames, T.slotUnits));
    const cpu = T.slotNames.indexOf('cpu-time');
    if (cpu > 0) out.push(makeMetric('cpu-time / real-time', '[cpu-time] / [real-time]', T.slotNames, T.slotUnits));
    for (const text of state.userExprs) { try { out.push(makeMetric(text, text, T.slotNames, T.slotUnits)); } catch (e) { /* tree names */ } }
    T.metrics = out;
    if (T === TRACE && TRACE_B) traceMetrics(TRACE_B);
    return out;
  }
  const recVal = (M, i, T = TRACE) => M.fn((s) => T.slots[s][i]);
  function fillTraceMetricSelects() {
    const Ms = TRACE.metrics;
    for (const id of ['ot-metric', 'sc-x', 'sc-y', 'tl-color']) {
      const s = $(id), old = s.value;
      s.textContent = '';
      if (id === 'tl-color') s.append(el('option', { value: 'thread' }, 'thread'));
      Ms.forEach((M, k) => s.append(el('option', { value: k }, M.label)));
      if (old !== '' && [...s.options].some((o) => o.value === old)) s.value = old;
    }
    const ipc = Ms.findIndex((M) => M.label === 'IPC'), miss = Ms.findIndex((M) => M.label.endsWith('/Kinstr'));
    const cpuShare = Ms.findIndex((M) => M.label === 'cpu-time / real-time');
    if (!$('sc-x').dataset.init) {
      $('sc-x').value = ipc >= 0 && miss >= 0 ? miss : 0;
      $('sc-y').value = ipc >= 0 ? ipc : cpuShare >= 0 ? cpuShare : Math.min(1, Ms.length - 1);
      $('ot-metric').value = ipc >= 0 ? ipc : cpuShare >= 0 ? cpuShare : 0;
      $('sc-x').dataset.init = '1';
    }
  }
  // Records after each GC (application records) and marker (non-idle, non-writer), as `hpm trace`.
  function afterEvents(count, T = TRACE) {
    const order = Array.from({ length: T.n }, (_, i) => i).sort((a, b) => T.start[a] - T.start[b]);
    const starts = order.map((i) => T.start[i]);
    const lower = (t) => { let lo = 0, hi = starts.length; while (lo < hi) { const m = (lo + hi) >> 1; if (starts[m] < t) lo = m + 1; else hi = m; } return lo; };
    const events = [];
    T.t.gcs.forEach(([s, e], k) => events.push({ label: 'GC ' + (k + 1), time: e, app: true }));
    T.t.markers.forEach((m) => events.push({ label: m.kind + (m.kind.startsWith('run-') ? ' ' + m.run : '') + ' "' + m.text + '"', time: m.time, app: false }));
    events.sort((a, b) => a.time - b.time);
    T.after.fill(0);
    for (const ev of events) {
      ev.records = [];
      for (let j = lower(ev.time); j < order.length && ev.records.length < count; j++) {
        const i = order[j], k = kindIn(T, T.thread[i]);
        if (k === 'idle' || k === 'writer' || (ev.app && k !== 'app')) continue;
        ev.records.push(i);
        T.after[i] = 1;
      }
    }
    return events;
  }
  function fillTraceFilters() {
    const th = $('rs-thread');
    th.append(el('option', { value: '' }, 'any'));
    const ids = [...new Set(TRACE.thread)].sort((a, b) => a - b);
    for (const id of ids) th.append(el('option', { value: id }, threadName(id) + ' (' + kindOf(id) + ')'));
    const vp = $('rs-vp');
    vp.append(el('option', { value: '' }, 'any'));
    for (const p of TRACE.t.processors) vp.append(el('option', { value: p.vp }, TRACE.t.processorKind + ' ' + p.vp + (p.name ? ' (' + p.name + ')' : '')));
    const iv = $('rs-interval');
    iv.append(el('option', { value: '' }, 'whole run'));
    const label = (m) => m.kind + (m.kind.startsWith('run-') ? ' ' + m.run : '') + (m.text ? ' "' + m.text + '"' : '');
    for (const p of phasesOf(TRACE.t.markers.map((m) => ({ time: m.time, text: label(m) })), TRACE.end, false)) iv.append(el('option', { value: p.lo + ':' + p.hi }, p.label));
    TRACE.t.gcs.forEach(([s, e], k) => iv.append(el('option', { value: s + ':' + e }, 'during GC ' + (k + 1) + ' (' + fmt(e - s, 'ns') + ')')));
    // A filter changed: the set shown is the filters' again. (A text field also says `change`
    // when it loses focus after an edit already applied, or after a named set filled it: nothing
    // changed then, and redrawing would take the click that moved the focus, on a row of the
    // records table say.)
    for (const id of FILTER_IDS) $(id).addEventListener('change', () => {
      if (JSON.stringify(readFilter()) === drawnFilter) return;
      state.show = ''; drawTrace();
    });
    for (const id of ['tl-rows', 'tl-color', 'tl-after', 'ot-metric', 'sc-x', 'sc-y', 'cmp-x', 'cmp-y']) $(id).addEventListener('change', () => drawTrace());
    $('set-show').addEventListener('change', (e) => { state.show = e.target.value; showSet(); });
    $('rs-reset').addEventListener('click', () => { setFilter({}); state.show = ''; drawTrace(); });
    $('set-save').addEventListener('click', () => { SETS.push({ name: nextSetName(), f: readFilter() }); state.show = SETS[SETS.length - 1].name; saveSets(); drawTrace(); });
    $('set-combine').addEventListener('click', () => {
      const x = $('set-x').value, y = $('set-y').value, op = $('set-op').value;
      if (x === y && op !== 'd') return;
      SETS.push({ name: nextSetName(), op, x, y }); state.show = SETS[SETS.length - 1].name; saveSets(); drawTrace();
    });
    $('rec-prev').addEventListener('click', () => { state.recPage = Math.max(0, state.recPage - 1); drawRecords(); });
    $('rec-next').addEventListener('click', () => { state.recPage++; drawRecords(); });
    $('tl-whole').addEventListener('click', () => { state.tlView = null; drawTrace(); });
  }

  // ---------------------------------------------------------------- record sets
  // A filter is what the fields above say (strings, as typed); a named set is a filter or a set
  // operation on two sets ({op: 'u' | 'i' | 'd', x, y}, names; '*' is every record). Named sets
  // are kept in the page's address (#sets=…) and read back when it is opened. `hpm trace`
  // (reports/src/quantum/sets.rs) reads the same conditions and computes the same statistics.
  const FILTER_IDS = ['rs-thread', 'rs-vp', 'rs-kind', 'rs-interval', 'rs-from', 'rs-to', 'rs-after', 'rs-dmin', 'rs-dmax', 'rs-where', 'rs-method'];
  const FILTER_KEYS = ['thread', 'vp', 'kind', 'interval', 'from', 'to', 'after', 'dmin', 'dmax', 'where', 'method'];
  let SETS = [];
  // The filter fields as last drawn (JSON).
  let drawnFilter = null;
  function readFilter() {
    const f = {};
    FILTER_IDS.forEach((id, k) => { const v = id === 'rs-after' ? $(id).checked : $(id).value.trim(); if (v) f[FILTER_KEYS[k]] = v; });
    return f;
  }
  function setFilter(f) {
    FILTER_IDS.forEach((id, k) => { if (id === 'rs-after') $(id).checked = !!f.after; else $(id).value = f[FILTER_KEYS[k]] || ''; });
  }
  function nextSetName() {
    for (let k = 0; ; k++) { const n = k < 26 ? String.fromCharCode(65 + k) : 'S' + k; if (!SETS.some((x) => x.name === n)) return n; }
  }
  const OPS = { u: '∪', i: '∩', d: '−' };
  function describeFilter(f) {
    const parts = [];
    if (f.thread) parts.push('thread ' + threadName(+f.thread));
    if (f.vp) parts.push(TRACE.t.processorKind + ' ' + f.vp);
    if (f.kind) parts.push('kind ' + f.kind);
    if (f.interval) { const o = [...$('rs-interval').options].find((x) => x.value === f.interval); parts.push(o ? o.textContent : f.interval); }
    if (f.from || f.to) parts.push((f.from || '0') + '–' + (f.to || '…') + ' ms');
    if (f.after) parts.push('after a GC or marker');
    if (f.dmin) parts.push('duration ≥ ' + f.dmin);
    if (f.dmax) parts.push('duration ≤ ' + f.dmax);
    if (f.where) parts.push(f.where);
    if (f.method) parts.push('method ~ /' + f.method + '/');
    return parts.length ? parts.join(', ') : 'all records';
  }
  const describeSet = (x) => (x.f ? describeFilter(x.f) : setLabel(x.x) + ' ' + OPS[x.op] + ' ' + setLabel(x.y));
  const setLabel = (key) => (key === '*' ? 'all' : key === '' ? 'filters' : key);
  // A number with an optional time unit (the value in ns), as sets.rs `parse_value`.
  function parseValue(text) {
    let t = text.trim(), mul = 1;
    for (const [u, m] of [['ns', 1], ['us', 1e3], ['µs', 1e3], ['ms', 1e6], ['s', 1e9]]) if (t.endsWith(u)) { t = t.slice(0, -u.length).trimEnd(); mul = m; break; }
    if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) throw new Error('`' + text.trim() + '` is not a number (a unit ns, us, ms or s may follow)');
    return parseFloat(t) * mul;
  }
  // The metric named `lhs` in trace T: a metric's label (any case; `duration` is real-time), or
  // an expression over its counters. A function of a record's index.
  function resolveMetric(lhs, T) {
    let l = lhs.trim();
    if (l.toLowerCase() === 'duration') l = 'real-time';
    const M = T.metrics.find((x) => x.label.toLowerCase() === l.toLowerCase());
    if (M) return (i) => recVal(M, i, T);
    const names = T.slotNames.concat(['duration']), alias = T.slotNames.length;
    const fn = compile(parseExpr(l, names));
    return (i) => fn((s) => T.slots[s === alias ? 0 : s][i]);
  }
  // Conditions `metric OP value` separated by commas.
  function parseConds(text, T) {
    const out = [];
    for (const raw of text.split(',')) {
      const part = raw.trim();
      if (!part) continue;
      const at = Math.max(part.lastIndexOf('<'), part.lastIndexOf('>'));
      if (at < 0) throw new Error('`' + part + '`: write a condition as METRIC < VALUE (or <=, >, >=)');
      const eq = part[at + 1] === '=', op = part[at] + (eq ? '=' : '');
      try {
        out.push({ fn: resolveMetric(part.slice(0, at), T), op, v: parseValue(part.slice(at + (eq ? 2 : 1))) });
      } catch (e) { throw new Error('`' + part + '`: ' + e.message); }
    }
    return out;
  }
  const holds = (op, v, b) => (op === '<' ? v < b : op === '<=' ? v <= b : op === '>' ? v > b : v >= b);
  // The records of trace T that pass filter f, as a mask. A thread is matched by name in another
  // run's trace; times are each trace's own (from its first record).
  function filterMask(f, T) {
    const conds = [];
    if (f.dmin) conds.push(...parseConds('duration >= ' + f.dmin, T));
    if (f.dmax) conds.push(...parseConds('duration <= ' + f.dmax, T));
    if (f.where) conds.push(...parseConds(f.where, T));
    let re = null;
    if (f.method) { try { re = new RegExp(f.method); } catch (e) { throw new Error('method: ' + e.message); } }
    let threads = null;
    if (f.thread) { const name = threadName(+f.thread); threads = new Set(T === TRACE ? [+f.thread] : T.t.threads.filter((x) => x.name === name).map((x) => x.id)); }
    let lo = -Infinity, hi = Infinity;
    if (f.interval && T === TRACE) { const [a, b] = f.interval.split(':').map(Number); lo = a; hi = b; }
    if (f.from) lo = Math.max(lo, parseFloat(f.from) * 1e6);
    if (f.to) hi = Math.min(hi, parseFloat(f.to) * 1e6);
    const vp = f.vp ? +f.vp : null, kind = f.kind || '';
    const methodOk = new Map();
    const mask = new Uint8Array(T.n);
    for (let i = 0; i < T.n; i++) {
      const th = T.thread[i], s = T.start[i], e = s + T.dur[i];
      if (threads && !threads.has(th)) continue;
      if (vp !== null && T.vp[i] !== vp) continue;
      if (kind) { const k = kindIn(T, th); if (kind === 'gc' ? k !== 'collector' : kind === 'nongc' ? k === 'collector' : k !== kind) continue; }
      if (!(e > lo && s < hi) || (f.after && !T.after[i])) continue;
      let ok = true;
      for (const c of conds) { const v = c.fn(i); if (!isFinite(v) || !holds(c.op, v, c.v)) { ok = false; break; } }
      if (!ok) continue;
      if (re) {
        const m = T.callee[i];
        if (!methodOk.has(m)) { const name = m ? T.methods.get(m) : undefined; methodOk.set(m, name !== undefined && re.test(name)); }
        if (!methodOk.get(m)) continue;
      }
      mask[i] = 1;
    }
    return mask;
  }
  // The mask of set `key` in trace T: '' the filters, '*' every record, else a named set.
  function setMask(key, T = TRACE, depth = 0) {
    if (key === '*') return new Uint8Array(T.n).fill(1);
    if (key === '') return filterMask(readFilter(), T);
    const x = SETS.find((y) => y.name === key);
    if (!x || depth > 64) throw new Error('no set ' + key);
    if (x.f) return filterMask(x.f, T);
    const a = setMask(x.x, T, depth + 1), b = setMask(x.y, T, depth + 1), out = new Uint8Array(T.n);
    for (let i = 0; i < T.n; i++) out[i] = x.op === 'u' ? a[i] | b[i] : x.op === 'i' ? a[i] & b[i] : a[i] & (1 - b[i]);
    return out;
  }
  function saveSets() {
    const h = SETS.length ? '#sets=' + encodeURIComponent(JSON.stringify({ sets: SETS, show: state.show })) : '#';
    try { history.replaceState(null, '', h); } catch (e) { location.hash = h; }
  }
  function loadSets() {
    const m = /^#sets=(.*)$/.exec(location.hash);
    if (!m) return false;
    try {
      const v = JSON.parse(decodeURIComponent(m[1]));
      SETS = (v.sets || []).filter((x) => x && typeof x.name === 'string' && (x.f || (OPS[x.op] && typeof x.x === 'string' && typeof x.y === 'string')));
      state.show = SETS.some((x) => x.name === v.show) ? v.show : '';
      return true;
    } catch (e) { return false; }
  }
  // A named set picked to show: its filters in the fields (a filter set), or the fields left.
  function showSet() {
    const x = SETS.find((y) => y.name === state.show);
    if (x && x.f) setFilter(x.f);
    saveSets();
    drawTrace();
  }
  function fillSetSelects() {
    const opts = (s, extra) => {
      const old = s.value;
      s.textContent = '';
      for (const [v, label] of extra) s.append(el('option', { value: v }, label));
      for (const x of SETS) s.append(el('option', { value: x.name }, x.name + ' = ' + describeSet(x)));
      if ([...s.options].some((o) => o.value === old)) s.value = old;
    };
    opts($('set-show'), [['', 'the filters above']]);
    $('set-show').value = state.show;
    // The set shown is named already.
    $('set-save').disabled = state.show !== '';
    opts($('set-x'), [['', 'the filters'], ['*', 'all records']]);
    opts($('set-y'), [['*', 'all records'], ['', 'the filters']]);
    const cx = $('cmp-x'), cy = $('cmp-y'), fresh = !cx.options.length;
    const b = TRACE_B ? [['B:', 'run B: the filters'], ['B:*', 'run B: all records']].concat(SETS.map((x) => ['B:' + x.name, 'run B: ' + x.name])) : [];
    opts(cx, [['', 'the set shown']]);
    opts(cy, [['!', 'the rest of the records'], ['*', 'all records'], ['', 'the set shown']].concat(b));
    if (fresh) { cx.value = ''; cy.value = TRACE_B ? 'B:' : '!'; }
    const list = $('set-list');
    list.textContent = '';
    for (const x of SETS) {
      list.append(el('span', { class: 'chip', 'data-set': x.name, title: describeSet(x) }, el('b', null, x.name), ' = ' + describeSet(x),
        el('button', { type: 'button', title: 'forget ' + x.name, onclick: () => {
          SETS = SETS.filter((y) => y !== x && y.x !== x.name && y.y !== x.name);
          if (!SETS.some((y) => y.name === state.show)) state.show = '';
          saveSets(); drawTrace();
        } }, '×')));
    }
  }

  // ---------------------------------------------------------------- statistics
  // Per metric over a set's records with a value: count, mean, sample standard deviation (n − 1),
  // min, max, and percentiles by nearest rank (the value at rank ⌈p/100 · n⌉), as sets.rs.
  const PCTS = [50, 90, 99];
  function statsOf(vals) {
    const n = vals.length;
    let sum = 0;
    for (let k = 0; k < n; k++) sum += vals[k];
    const mean = sum / n;
    let ss = 0;
    for (let k = 0; k < n; k++) ss += (vals[k] - mean) * (vals[k] - mean);
    const sorted = Float64Array.from(vals).sort();
    const pct = (p) => (n ? sorted[Math.min(n, Math.max(1, Math.ceil((p * n) / 100))) - 1] : NaN);
    return { n, mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : n === 1 ? 0 : NaN, min: n ? sorted[0] : NaN, max: n ? sorted[n - 1] : NaN, p50: pct(50), p90: pct(90), p99: pct(99) };
  }
  function setStats(mask, T = TRACE) {
    return T.metrics.map((M) => {
      const vals = [];
      for (let i = 0; i < T.n; i++) if (mask[i]) { const v = recVal(M, i, T); if (isFinite(v)) vals.push(v); }
      return Object.assign({ metric: M.label, unit: M.linear ? M.unit : 'ratio' }, statsOf(vals));
    });
  }
  function drawSetStats(st) {
    const t = $('set-stats');
    t.textContent = '';
    const cols = ['n', 'mean', 'sd', 'min', 'p50', 'p90', 'p99', 'max'];
    t.append(el('thead', null, el('tr', null, el('th', { class: 'name' }, 'Metric'), ...cols.map((c) => el('th', { title: c === 'sd' ? 'sample standard deviation' : c[0] === 'p' ? 'percentile, nearest rank' : null }, c === 'n' ? 'N' : c === 'sd' ? 'SD' : c[0].toUpperCase() + c.slice(1))))));
    const body = el('tbody');
    for (const x of st) body.append(el('tr', { 'data-metric': x.metric }, el('td', { class: 'name' }, x.metric), ...cols.map((c) => el('td', null, c === 'n' ? x.n.toLocaleString('en-US') : fmt(x[c], x.unit)))));
    t.append(body);
  }
  // What differs between sets X and Y: per metric the standardized mean difference (mean X −
  // mean Y over the root of the mean of the two variances), per top method the difference of its
  // share of each set's time; largest first.
  function smd(a, b) {
    if (!a.n || !b.n) return NaN;
    const d = a.mean - b.mean, pooled = Math.sqrt((a.sd * a.sd + b.sd * b.sd) / 2);
    return pooled > 0 ? d / pooled : d === 0 ? 0 : Math.sign(d) * Infinity;
  }
  function methodShares(mask, T) {
    const by = new Map();
    let total = 0;
    for (let i = 0; i < T.n; i++) {
      if (!mask[i]) continue;
      const m = (T.callee[i] && T.methods.get(T.callee[i])) || '(no method)';
      by.set(m, (by.get(m) || 0) + T.dur[i]);
      total += T.dur[i];
    }
    for (const [m, d] of by) by.set(m, total > 0 ? d / total : 0);
    return by;
  }
  // The statistics of every record of T, kept until its metrics change.
  const allStats = (T) => (T.allStats && T.allStats.metrics === T.metrics ? T.allStats.stats : (T.allStats = { metrics: T.metrics, stats: setStats(new Uint8Array(T.n).fill(1), T) }).stats);
  function ranking(mx, TX, my, TY, sx = null, sy = null) {
    sx = sx || setStats(mx, TX); sy = sy || setStats(my, TY);
    const metrics = [];
    for (const a of sx) { const b = sy.find((y) => y.metric === a.metric); if (b) { const d = smd(a, b); if (!isNaN(d)) metrics.push({ metric: a.metric, unit: a.unit, a, b, smd: d }); } }
    const byName = (p, q) => (p < q ? -1 : p > q ? 1 : 0);
    metrics.sort((p, q) => Math.abs(q.smd) - Math.abs(p.smd) || byName(p.metric, q.metric));
    const px = methodShares(mx, TX), py = methodShares(my, TY);
    // Shares of an empty set are no shares.
    const methods = px.size && py.size ? [...new Set([...px.keys(), ...py.keys()])].map((m) => ({ method: m, a: px.get(m) || 0, b: py.get(m) || 0 })) : [];
    methods.sort((p, q) => Math.abs(q.a - q.b) - Math.abs(p.a - p.b) || byName(p.method, q.method));
    return { metrics, methods, nx: mx.reduce((a, b) => a + b, 0), ny: my.reduce((a, b) => a + b, 0) };
  }
  const cmpSide = (key) => (key.startsWith('B:') ? [TRACE_B, key.slice(2)] : [TRACE, key]);
  let RANKING = null;
  function drawRanking() {
    const [TX, kx] = cmpSide($('cmp-x').value);
    // '!': the records of X's trace not in X.
    const rest = $('cmp-y').value === '!', [TY, ky] = rest ? [TX, '!'] : cmpSide($('cmp-y').value);
    const msg = $('cmp-msg');
    msg.classList.remove('error');
    try {
      const shownX = kx === '' && TX === TRACE, mx = shownX ? TRACE.inSet : setMask(kx, TX);
      const my = rest ? mx.map((v) => 1 - v) : setMask(ky, TY);
      RANKING = ranking(mx, TX, my, TY, shownX ? TRACE.stats : null, ky === '*' ? allStats(TY) : null);
    } catch (e) { RANKING = null; msg.textContent = e.message; msg.classList.add('error'); return; }
    msg.textContent = plural(RANKING.nx, 'record') + ' against ' + plural(RANKING.ny, 'record') + (TRACE_B ? ' · run B: ' + TRACE_B.t.label : '') +
      (RANKING.nx && RANKING.ny ? '' : ': nothing to compare with an empty set');
    const mt = $('cmp-metrics');
    mt.textContent = '';
    mt.append(el('thead', null, el('tr', null, el('th', { class: 'name' }, 'Metric'), el('th', null, 'mean X'), el('th', null, 'mean Y'), el('th', { title: 'standardized mean difference: (mean X − mean Y) / √((SD X² + SD Y²) / 2)' }, 'SMD'))));
    const body = el('tbody');
    for (const r of RANKING.metrics) body.append(el('tr', null, el('td', { class: 'name' }, r.metric), el('td', null, fmt(r.a.mean, r.unit)), el('td', null, fmt(r.b.mean, r.unit)),
      el('td', { class: r.smd > 0 ? 'grew' : r.smd < 0 ? 'shrank' : '' }, isFinite(r.smd) ? (r.smd > 0 ? '+' : '') + r.smd.toFixed(2) : r.smd > 0 ? '+∞' : '−∞')));
    mt.append(body);
    const ht = $('cmp-methods');
    ht.textContent = '';
    ht.append(el('thead', null, el('tr', null, el('th', { class: 'name' }, 'Top method'), el('th', null, 'share X'), el('th', null, 'share Y'), el('th', { title: 'share of the set\'s time, X − Y, in points' }, 'Δ share'))));
    const hb = el('tbody');
    for (const r of RANKING.methods.slice(0, 50)) hb.append(el('tr', null, el('td', { class: 'name' }, wrapName(r.method)), el('td', null, pct(r.a)), el('td', null, pct(r.b)),
      el('td', { class: r.a > r.b ? 'grew' : r.a < r.b ? 'shrank' : '' }, ((r.a - r.b) * 100).toFixed(1))));
    ht.append(hb);
  }

  // ---------------------------------------------------------------- the set's records
  // Sortable (click a header), 100 a page; a row's click shows the record on the timeline, a
  // record's click on the timeline selects its row.
  const REC_PAGE = 100;
  let REC_ROWS = [];
  function recColumns() {
    const cols = [
      { label: 'start', key: (i) => TRACE.start[i], show: (i) => fmt(TRACE.start[i], 'ns') },
      { label: 'duration', key: (i) => TRACE.dur[i], show: (i) => fmt(TRACE.dur[i], 'ns') },
      { label: 'thread', name: true, key: (i) => threadName(TRACE.thread[i]), show: (i) => threadName(TRACE.thread[i]) },
      { label: TRACE.t.processorKind, key: (i) => TRACE.vp[i], show: (i) => TRACE.vp[i] },
      { label: 'top method', name: true, key: (i) => TRACE.methods.get(TRACE.callee[i]) || '', show: (i) => TRACE.methods.get(TRACE.callee[i]) || '' },
    ];
    for (const M of TRACE.metrics.slice(1)) cols.push({ label: M.label, key: (i) => { const v = recVal(M, i); return isFinite(v) ? v : -Infinity; }, show: (i) => fmt(recVal(M, i), M.linear ? M.unit : 'ratio') });
    return cols;
  }
  function sortRecords() {
    const cols = recColumns(), c = cols[Math.min(state.recSort, cols.length - 1)], dir = state.recAsc ? 1 : -1;
    REC_ROWS = [];
    for (let i = 0; i < TRACE.n; i++) if (TRACE.inSet[i]) REC_ROWS.push(i);
    // Records are in the trace's order (of start): sorted by start already.
    if (state.recSort === 0 && state.recAsc) return;
    const keys = new Array(TRACE.n);
    for (const i of REC_ROWS) keys[i] = c.key(i);
    REC_ROWS.sort((a, b) => { const x = keys[a], y = keys[b]; return (x < y ? -1 : x > y ? 1 : a - b) * dir; });
  }
  function drawRecords() {
    const cols = recColumns(), t = $('records');
    const pages = Math.max(1, Math.ceil(REC_ROWS.length / REC_PAGE));
    state.recPage = Math.max(0, Math.min(state.recPage, pages - 1));
    t.textContent = '';
    t.append(el('thead', null, el('tr', null, ...cols.map((c, k) => el('th', {
      class: (c.name ? 'name ' : '') + (k === state.recSort ? 'sorted' + (state.recAsc ? ' asc' : '') : ''),
      onclick: () => { state.recAsc = k === state.recSort ? !state.recAsc : !!c.name || k === 0; state.recSort = k; sortRecords(); keepSelectedPage(); drawRecords(); },
    }, c.label)))));
    const body = el('tbody');
    for (const i of REC_ROWS.slice(state.recPage * REC_PAGE, (state.recPage + 1) * REC_PAGE)) {
      body.append(el('tr', { 'data-rec': i, class: i === state.sel ? 'picked' : '', onclick: () => selectRecord(i, true) }, ...cols.map((c) => el('td', c.name ? { class: 'name' } : null, c.show(i)))));
    }
    t.append(body);
    $('rec-msg').textContent = REC_ROWS.length ? 'rows ' + (state.recPage * REC_PAGE + 1).toLocaleString('en-US') + '–' + Math.min(REC_ROWS.length, (state.recPage + 1) * REC_PAGE).toLocaleString('en-US') + ' of ' + REC_ROWS.length.toLocaleString('en-US') + ' · click a row to see it on the timeline' : 'no records';
    if (state.sel >= 0 && !TRACE.inSet[state.sel]) $('rec-msg').textContent += ' · the record picked on the timeline is not in the set';
    $('rec-prev').disabled = state.recPage === 0;
    $('rec-next').disabled = state.recPage >= pages - 1;
  }
  function keepSelectedPage() { const k = REC_ROWS.indexOf(state.sel); if (k >= 0) state.recPage = Math.floor(k / REC_PAGE); }
  // Record i selected: from its row, the timeline zooms to it; from the timeline, its row is shown.
  function selectRecord(i, fromRow) {
    state.sel = i;
    if (fromRow) {
      const pad = Math.max(TRACE.dur[i] * 3, TRACE.end / 2000);
      state.tlView = [Math.max(0, TRACE.start[i] - pad), Math.min(TRACE.end, TRACE.start[i] + TRACE.dur[i] + pad)];
    }
    drawTrace();
    if (fromRow) $('timeline').scrollIntoView({ block: 'nearest' });
    else {
      const row = $('records').querySelector('tr[data-rec="' + i + '"]');
      if (row) row.scrollIntoView({ block: 'nearest' });
    }
  }
  const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#edc948', '#76b7b2', '#ff9da7', '#9c755f', '#8cd17d', '#e15759', '#499894', '#d37295', '#a0cbe8', '#ffbe7d', '#86bcb6', '#f1ce63'];
  const threadColor = (id) => {
    const k = kindOf(id);
    if (k === 'idle') return '#d9dde1';
    if (k === 'collector') return '#c8352b';
    if (k === 'writer') return '#8a6d3b';
    if (k === 'system') return '#7f8c99';
    if (k === 'jit') return '#5b6f8f';
    return PALETTE[id % PALETTE.length];
  };
  let tlGeom = null;

  function drawTrace() {
    if (!TRACE.ready) {
      TRACE.ready = true; traceMetrics(); fillTraceMetricSelects(); fillTraceFilters();
      const x = SETS.find((y) => y.name === state.show);
      if (x && x.f) setFilter(x.f);
    }
    const t = TRACE.t;
    const after = Math.max(0, parseInt($('tl-after').value, 10) || 0);
    const events = afterEvents(after);
    if (TRACE_B) afterEvents(after, TRACE_B);
    fillSetSelects();
    const msg = $('rs-msg');
    msg.textContent = ''; msg.classList.remove('error');
    try { TRACE.inSet.set(setMask(state.show)); } catch (e) { TRACE.inSet.fill(0); msg.textContent = e.message; msg.classList.add('error'); }
    let count = 0;
    for (let i = 0; i < TRACE.n; i++) count += TRACE.inSet[i];
    // The time range of the filters (of the set shown when it is a combined set: none), shaded
    // on the timeline.
    const shown = SETS.find((x) => x.name === state.show);
    drawnFilter = JSON.stringify(readFilter());
    const f = shown && !shown.f ? {} : readFilter();
    let lo = -Infinity, hi = Infinity;
    if (f.interval) [lo, hi] = f.interval.split(':').map(Number);
    if (f.from) lo = Math.max(lo, parseFloat(f.from) * 1e6);
    if (f.to) hi = Math.min(hi, parseFloat(f.to) * 1e6);
    const rs = { count, lo, hi };
    // Head: what the trace is, and its issues.
    const head = $('trace-head');
    head.textContent = plural(TRACE.n, 'record') + ' on ' + plural(t.processors.length, t.processorKind) + ', ' + plural(t.threads.length, 'thread') + ', ' +
      plural(t.markers.length, 'marker') + ', ' + plural(t.gcs.length, 'GC') + ', ' + fmt(TRACE.end, 'ns') + ' traced; ' + plural(t.missed, 'record') + ' missed. Counters: ' + t.counters.join(', ') + '.';
    if (t.issues.length) head.append(el('div', { class: 'issues' }, t.issues.slice(0, 5).join(' · ') + (t.issues.length > 5 ? ' · …' : '')));
    // Sums and statistics of the record set.
    const st = $('rs-stats');
    st.textContent = '';
    const sums = TRACE.slots.map(() => 0);
    const threads = new Set();
    for (let i = 0; i < TRACE.n; i++) if (TRACE.inSet[i]) { threads.add(TRACE.thread[i]); for (let s = 0; s < sums.length; s++) sums[s] += TRACE.slots[s][i]; }
    st.append(el('span', null, (shown ? 'Set ' + shown.name + ': ' : ''), el('b', null, rs.count.toLocaleString('en-US')), (rs.count === 1 ? ' record (' : ' records (') + pct(TRACE.n ? rs.count / TRACE.n : 0) + '), ' + plural(threads.size, 'thread')));
    st.append(el('span', null, 'sums:'));
    for (const M of TRACE.metrics) st.append(el('span', null, M.label + ' ', el('b', null, fmt(M.fn((s) => sums[s]), M.unit))));
    st.dataset.count = rs.count;
    TRACE.stats = setStats(TRACE.inSet);
    drawSetStats(TRACE.stats);
    drawTimeline(events, rs);
    sortRecords();
    keepSelectedPage();
    drawRecords();
    drawRanking();
    drawOverTime(events);
    drawScatter();
    drawAfterTable(events);
  }

  function drawTimeline(events, rs) {
    const cv = $('timeline'), c = cv.getContext('2d');
    const byThread = $('tl-rows').value === 'thread';
    const colorBy = $('tl-color').value;
    const keys = byThread ? [...new Set(TRACE.thread)].sort((a, b) => kindRank(a) - kindRank(b) || a - b) : TRACE.t.processors.map((p) => p.vp);
    const rowOf = new Map(keys.map((k, r) => [k, r]));
    const LABEL = 170, ROW = byThread ? 14 : 26, TOP = 18, AXIS = 18;
    const H = TOP + keys.length * ROW + AXIS, { W } = timelineCanvas(cv, H);
    // The time window shown: the whole trace, or around the record picked in the table.
    const [vlo, vhi] = state.tlView || [0, Math.max(1, TRACE.end)];
    const span = Math.max(1, vhi - vlo), plotW = W - LABEL - 10;
    const X = (tm) => LABEL + ((tm - vlo) / span) * plotW;
    tlGeom = { X, LABEL, plotW, span, lo: vlo, TOP, ROW, H, rowOf, byThread };
    $('tl-whole').hidden = !state.tlView;
    c.save();
    c.beginPath(); c.rect(LABEL, 0, plotW + 1, H); c.clip();
    // GCs as bands, the selected time range as a shade.
    c.fillStyle = 'rgba(200,53,43,0.10)';
    for (const [s, e] of TRACE.t.gcs) c.fillRect(X(s), TOP, Math.max(1, X(e) - X(s)), keys.length * ROW);
    if (isFinite(rs.lo) || isFinite(rs.hi)) {
      c.fillStyle = 'rgba(47,111,176,0.10)';
      const a = X(Math.max(vlo, rs.lo)), b = X(Math.min(vhi, rs.hi));
      c.fillRect(a, TOP, Math.max(1, b - a), keys.length * ROW);
    }
    let M = null, lo = 0, hi = 1;
    if (colorBy !== 'thread' && colorBy !== '') {
      M = TRACE.metrics[+colorBy];
      const vs = [];
      for (let i = 0; i < TRACE.n; i++) { const v = recVal(M, i); if (isFinite(v)) vs.push(v); }
      vs.sort((a, b) => a - b);
      if (vs.length) { lo = vs[Math.floor(vs.length * 0.05)]; hi = vs[Math.floor((vs.length - 1) * 0.95)]; }
      if (hi <= lo) hi = lo + 1;
    }
    let drawnIn = 0;
    for (const pass of [0, 1]) {
      for (let i = 0; i < TRACE.n; i++) {
        const inSet = TRACE.inSet[i] === 1;
        if ((pass === 1) !== inSet) continue;
        const r = rowOf.get(byThread ? TRACE.thread[i] : TRACE.vp[i]);
        if (r === undefined || TRACE.start[i] > vhi || TRACE.start[i] + TRACE.dur[i] < vlo) continue;
        const x = X(TRACE.start[i]), w = Math.max(0.6, X(TRACE.start[i] + TRACE.dur[i]) - x);
        c.globalAlpha = inSet ? 1 : 0.13;
        if (M) { const v = recVal(M, i); c.fillStyle = isFinite(v) ? heat((v - lo) / (hi - lo)) : '#ccc'; } else c.fillStyle = threadColor(TRACE.thread[i]);
        c.fillRect(x, TOP + r * ROW + 1, w, ROW - 2);
        if (inSet) drawnIn++;
      }
    }
    c.globalAlpha = 1;
    // Records after each GC and marker: a dark tick above the bar.
    c.fillStyle = '#1d232a';
    for (let i = 0; i < TRACE.n; i++) {
      if (!TRACE.after[i]) continue;
      const r = rowOf.get(byThread ? TRACE.thread[i] : TRACE.vp[i]);
      if (r !== undefined) c.fillRect(X(TRACE.start[i]), TOP + r * ROW, 2, 3);
    }
    markerLines(c, TRACE.t.markers.map((m) => ({ time: m.time, text: m.kind + ' ' + m.text })), X, TOP, TOP + keys.length * ROW);
    // The record picked: outlined, with a line down to the axis.
    const sel = state.sel, sr = sel >= 0 ? rowOf.get(byThread ? TRACE.thread[sel] : TRACE.vp[sel]) : undefined;
    if (sr !== undefined) {
      const x = X(TRACE.start[sel]), w = Math.max(3, X(TRACE.start[sel] + TRACE.dur[sel]) - x), cx = w === 3 ? x - 1 : x;
      c.strokeStyle = '#000'; c.lineWidth = 2;
      c.strokeRect(cx - 1, TOP + sr * ROW - 1, w + 2, ROW);
      c.fillStyle = 'rgba(0,0,0,0.35)'; c.fillRect(cx + w / 2, TOP + (sr + 1) * ROW, 1, (keys.length - sr - 1) * ROW);
    }
    c.restore();
    // Row labels and time axis.
    c.fillStyle = '#3b4652'; c.textBaseline = 'middle'; c.font = (byThread ? 10 : 11) + 'px system-ui, sans-serif';
    keys.forEach((k, r) => {
      const label = byThread ? threadName(k) + ' (' + kindOf(k) + ')' : TRACE.t.processorKind + ' ' + k + (TRACE.t.processors[r] && TRACE.t.processors[r].name ? ' ' + TRACE.t.processors[r].name : '');
      c.fillText(label.length > 28 ? label.slice(0, 27) + '…' : label, 4, TOP + r * ROW + ROW / 2);
    });
    timeAxis(c, X, span, H - AXIS, vlo);
    cv.dataset.inSet = drawnIn;
    timelineLegend(M, lo, hi, keys, byThread);
  }
  // What the timeline's colours and marks mean, under it.
  function timelineLegend(M, lo, hi, keys, byThread) {
    const lg = $('tl-legend');
    lg.textContent = '';
    const sw = (style, label) => lg.append(el('span', { class: 'swatch', style }), label);
    if (M) {
      lg.append('Colour: ' + M.label + ' of the record, 5th to 95th percentile:');
      sw('background:' + heat(0), fmt(lo, M.unit));
      sw('background:' + heat(0.5), fmt((lo + hi) / 2, M.unit));
      sw('background:' + heat(1), fmt(hi, M.unit) + ' or more');
      sw('background:#ccc', 'no value');
    } else {
      lg.append('Colour: the thread that ran:');
      // The application threads by name (the first 12), then each other kind present.
      const threads = [...new Set(TRACE.thread)].sort((a, b) => a - b);
      const app = threads.filter((id) => kindOf(id) === 'app');
      for (const id of app.slice(0, 12)) sw('background:' + threadColor(id), threadName(id));
      if (app.length > 12) lg.append(' … (' + plural(app.length - 12, 'more application thread') + ')');
      const kinds = { system: 'system thread', jit: 'JIT compiler thread', collector: 'collector (GC) thread', writer: 'trace writer', idle: 'idle' };
      for (const k in kinds) { const id = threads.find((t) => kindOf(t) === k); if (id !== undefined) sw('background:' + threadColor(id), kinds[k]); }
    }
    lg.append(el('br'));
    sw('background:rgba(200,53,43,0.18)', 'GC (shaded)');
    sw('background:transparent;border-left:1px dashed #2f6fb0;border-radius:0;width:3px', 'marker (dashed line)');
    sw('background:#1d232a;height:3px;vertical-align:7px', 'first records after each GC and marker (tick)');
    sw('background:rgba(47,111,176,0.18)', 'selected time range');
    if (state.sel >= 0) sw('background:transparent;border:2px solid #000;border-radius:0', 'record picked in the table');
    lg.append(' · faded bars: outside the record set');
    lg.dataset.colour = M ? M.label : 'thread';
  }
  const kindRank = (id) => ['app', 'system', 'jit', 'collector', 'writer', 'idle'].indexOf(kindOf(id));

  (function timelineDrag() {
    const cv = $('timeline');
    timeDrag(cv, () => tlGeom, (a, b) => {
      $('rs-from').value = (a / 1e6).toFixed(3);
      $('rs-to').value = (b / 1e6).toFixed(3);
      state.show = '';
      drawTrace();
    }, (t, ev) => { const i = recordAt(ev); if (i >= 0) selectRecord(i, false); });
    // The record under the pointer (-1: none).
    const recordAt = (ev) => {
      const r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
      const row = Math.floor((y - tlGeom.TOP) / tlGeom.ROW), tm = tlGeom.lo + ((x - tlGeom.LABEL) / tlGeom.plotW) * tlGeom.span;
      const slack = tlGeom.span / tlGeom.plotW;
      for (let i = 0; i < TRACE.n && row >= 0; i++) {
        if (tlGeom.rowOf.get(tlGeom.byThread ? TRACE.thread[i] : TRACE.vp[i]) !== row) continue;
        if (tm >= TRACE.start[i] - slack && tm <= TRACE.start[i] + TRACE.dur[i] + slack) return i;
      }
      return -1;
    };
    cv.addEventListener('mousemove', (ev) => {
      if (!tlGeom) return;
      const hit = recordAt(ev);
      if (hit < 0) { $('tip').hidden = true; return; }
      const tip = $('tip');
      tip.textContent = '';
      tip.append(el('b', null, threadName(TRACE.thread[hit])), ' on ' + TRACE.t.processorKind + ' ' + TRACE.vp[hit] + (TRACE.yielded[hit] ? ', yielded' : ''), el('br'),
        fmt(TRACE.start[hit], 'ns') + ' + ' + fmt(TRACE.dur[hit], 'ns') + (TRACE.callee[hit] ? ' · in ' + (TRACE.methods.get(TRACE.callee[hit]) || 'method ' + TRACE.callee[hit]) : ''));
      for (const M of TRACE.metrics.slice(1)) tip.append(el('br'), M.label + ': ' + fmt(recVal(M, hit), M.unit));
      showTip(ev);
    });
    cv.addEventListener('mouseleave', () => { $('tip').hidden = true; });
  })();

  function axes(c, W, H, L, B, xlo, xhi, ylo, yhi, xunit, yunit) {
    c.strokeStyle = '#c9ced4'; c.lineWidth = 1;
    c.beginPath(); c.moveTo(L, 8); c.lineTo(L, H - B); c.lineTo(W - 8, H - B); c.stroke();
    c.fillStyle = '#65707c'; c.font = '10px system-ui, sans-serif';
    c.textBaseline = 'middle'; c.textAlign = 'right';
    for (let k = 0; k <= 4; k++) { const v = ylo + ((yhi - ylo) * k) / 4, y = H - B - ((H - B - 8) * k) / 4; c.fillText(fmt(v, yunit), L - 4, y); c.fillStyle = '#eef0f2'; c.fillRect(L + 1, y, W - L - 9, 1); c.fillStyle = '#65707c'; }
    c.textAlign = 'center'; c.textBaseline = 'top';
    for (let k = 0; k <= 4; k++) { const v = xlo + ((xhi - xlo) * k) / 4, x = L + ((W - L - 8) * k) / 4; c.fillText(fmt(v, xunit), x, H - B + 4); }
    c.textAlign = 'left';
  }
  function setupCanvas(cv) {
    const dpr = window.devicePixelRatio || 1, W = cv.clientWidth || 500, H = cv.clientHeight || 300;
    cv.width = W * dpr; cv.height = H * dpr;
    const c = cv.getContext('2d');
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.fillStyle = '#fff'; c.fillRect(0, 0, W, H);
    return { c, W, H };
  }

  // The metric over time for the record set: per bin, ratio of sums for a ratio, rate per ms of a
  // sum otherwise. Records go to the bin of their midpoint.
  function drawOverTime(events) {
    const M = TRACE.metrics[+$('ot-metric').value] || TRACE.metrics[0];
    const { c, W, H } = setupCanvas($('overtime'));
    // Enough records per bin for a line, at most 150 bins.
    const BINS = Math.max(8, Math.min(150, Math.round(Math.sqrt(TRACE.n) * 2))), L = 64, B = 22;
    const span = Math.max(1, TRACE.end), bw = span / BINS;
    const sums = Array.from({ length: BINS }, () => new Float64Array(TRACE.slots.length));
    const used = new Uint8Array(BINS);
    for (let i = 0; i < TRACE.n; i++) {
      if (!TRACE.inSet[i]) continue;
      const b = Math.min(BINS - 1, Math.floor((TRACE.start[i] + TRACE.dur[i] / 2) / bw));
      used[b] = 1;
      for (let s = 0; s < TRACE.slots.length; s++) sums[b][s] += TRACE.slots[s][i];
    }
    const ys = sums.map((v, b) => (used[b] ? M.fn((s) => v[s]) / (M.linear ? bw / 1e6 : 1) : NaN));
    const fin = ys.filter(isFinite);
    const ylo = Math.min(0, ...fin), yhi = fin.length ? Math.max(...fin) * 1.05 || 1 : 1;
    axes(c, W, H, L, B, 0, span, ylo, yhi, 'ns', M.linear ? M.unit : 'ratio');
    const X = (tm) => L + (tm / span) * (W - L - 8), Y = (v) => H - B - ((v - ylo) / (yhi - ylo)) * (H - B - 8);
    c.fillStyle = 'rgba(200,53,43,0.12)';
    for (const [s, e] of TRACE.t.gcs) c.fillRect(X(s), 8, Math.max(1, X(e) - X(s)), H - B - 8);
    c.strokeStyle = '#2f6fb0'; c.setLineDash([3, 2]);
    for (const m of TRACE.t.markers) { c.beginPath(); c.moveTo(X(m.time) + 0.5, 8); c.lineTo(X(m.time) + 0.5, H - B); c.stroke(); }
    c.setLineDash([]);
    c.strokeStyle = '#c0399b'; c.lineWidth = 1.6; c.beginPath();
    let pen = false;
    ys.forEach((v, b) => { if (!isFinite(v)) { pen = false; return; } const x = X((b + 0.5) * bw), y = Y(v); if (pen) c.lineTo(x, y); else c.moveTo(x, y); pen = true; });
    c.stroke();
    c.fillStyle = '#3b4652'; c.font = '11px system-ui, sans-serif'; c.textBaseline = 'top';
    c.fillText(M.label + (M.linear ? ' per ms' : '') + ' · GCs shaded, markers dashed', L + 6, 10);
    $('overtime').dataset.points = fin.length;
  }

  function drawScatter() {
    const MX = TRACE.metrics[+$('sc-x').value] || TRACE.metrics[0], MY = TRACE.metrics[+$('sc-y').value] || TRACE.metrics[0];
    const { c, W, H } = setupCanvas($('scatter'));
    const L = 64, B = 22;
    const xs = [], ys = [], ids = [];
    for (let i = 0; i < TRACE.n; i++) {
      if (!TRACE.inSet[i]) continue;
      const x = recVal(MX, i), y = recVal(MY, i);
      if (isFinite(x) && isFinite(y)) { xs.push(x); ys.push(y); ids.push(i); }
    }
    const q = (a, f) => { const s = a.slice().sort((u, v) => u - v); return s.length ? s[Math.min(s.length - 1, Math.floor(f * (s.length - 1)))] : 0; };
    // Axes from the 1st to the 99th percentile, so that a few outliers do not squash the cloud.
    const xlo = Math.min(0, q(xs, 0.01)), xhi = q(xs, 0.99) * 1.05 || 1, ylo = Math.min(0, q(ys, 0.01)), yhi = q(ys, 0.99) * 1.05 || 1;
    axes(c, W, H, L, B, xlo, xhi, ylo, yhi, MX.linear ? MX.unit : 'ratio', MY.linear ? MY.unit : 'ratio');
    const X = (v) => L + ((v - xlo) / (xhi - xlo)) * (W - L - 8), Y = (v) => H - B - ((v - ylo) / (yhi - ylo)) * (H - B - 8);
    c.globalAlpha = 0.7;
    for (let k = 0; k < xs.length; k++) {
      if (xs[k] > xhi || ys[k] > yhi) continue;
      c.fillStyle = threadColor(TRACE.thread[ids[k]]);
      c.fillRect(X(xs[k]) - 1.5, Y(ys[k]) - 1.5, 3, 3);
    }
    c.globalAlpha = 1;
    c.strokeStyle = '#1d232a';
    for (let k = 0; k < xs.length; k++) if (TRACE.after[ids[k]] && xs[k] <= xhi && ys[k] <= yhi) { c.beginPath(); c.arc(X(xs[k]), Y(ys[k]), 4, 0, 2 * Math.PI); c.stroke(); }
    // Pearson's r over the points.
    const n = xs.length;
    let r = NaN;
    if (n > 2) {
      const mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
      let sxy = 0, sxx = 0, syy = 0;
      for (let k = 0; k < n; k++) { const dx = xs[k] - mx, dy = ys[k] - my; sxy += dx * dy; sxx += dx * dx; syy += dy * dy; }
      r = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
    }
    $('sc-r').textContent = n + ' records, r = ' + (isFinite(r) ? r.toFixed(3) : '-') + ' · circled: after a GC or marker';
    $('scatter').dataset.points = n;
  }

  function drawAfterTable(events) {
    const t = $('after');
    t.textContent = '';
    const extra = TRACE.metrics.filter((M) => M.single !== 0);
    t.append(el('thead', null, el('tr', null, el('th', { class: 'name' }, 'After'), el('th', { class: 'name' }, 'Thread'), el('th', null, TRACE.t.processorKind), el('th', null, 'start'), el('th', null, 'duration'), ...extra.map((M) => el('th', null, M.label)))));
    const body = el('tbody');
    // Tens of thousands of collections (a collector's short pauses) would make a table no one
    // reads and take seconds to draw: the first AFTER_EVENTS, and a line for the rest.
    const AFTER_EVENTS = 200;
    for (const ev of events.slice(0, AFTER_EVENTS)) {
      if (!ev.records.length) body.append(el('tr', null, el('td', { class: 'name' }, ev.label + ' at ' + fmt(ev.time, 'ns')), el('td', { class: 'name' }, '(none)')));
      ev.records.forEach((i, k) => body.append(el('tr', { class: TRACE.inSet[i] ? '' : 'out' },
        el('td', { class: 'name' }, k ? '' : ev.label + ' at ' + fmt(ev.time, 'ns')), el('td', { class: 'name' }, threadName(TRACE.thread[i])), el('td', null, TRACE.vp[i]),
        el('td', null, fmt(TRACE.start[i], 'ns')), el('td', null, fmt(TRACE.dur[i], 'ns')), ...extra.map((M) => el('td', null, fmt(recVal(M, i), M.unit))))));
    }
    if (events.length > AFTER_EVENTS) {
      body.append(el('tr', null, el('td', { class: 'name' }, (events.length - AFTER_EVENTS) + ' more GCs and markers (hpm trace DIR lists them all)')));
    }
    t.append(body);
  }

  // ---------------------------------------------------------------- start
  // Test hook: where a drawn frame whose name contains `text` is (the widest), in page coordinates.
  window.hpmExplorer = {
    // The labels drawn in the flame graph: { name, label, width } per labelled frame.
    labels() { return Array.from({ length: drawn.labels.length / 2 }, (_, k) => { const i = drawn.labels[2 * k]; return { name: VIEW.names[VIEW.cons[drawn.node[i]]], label: drawn.labels[2 * k + 1], width: drawn.w[i] }; }); },
    // Where time `t` (ns) of the samples' timeline is, in page coordinates (its first lane).
    samplesAt(t) { const r = $('samples').getBoundingClientRect(); return { x: r.left + smGeom.LABEL + (t / smGeom.span) * smGeom.plotW, y: r.top + 23 }; },
    // The label a frame `w` pixels wide would get.
    shortName(name, w) { return shortName(name, w, ctx); },
    // The trace's record set shown: the records' keys (processor:start in the trace's time, t0
    // added back), their statistics, and the ranking of the sets compared.
    setKeys() { const out = []; for (let i = 0; i < TRACE.n; i++) if (TRACE.inSet[i]) out.push(TRACE.vp[i] + ':' + (TRACE.start[i] + TRACE.t.t0)); return out; },
    setStats() { return TRACE.stats; },
    ranking() { return RANKING; },
    recordKey(i) { return TRACE.vp[i] + ':' + (TRACE.start[i] + TRACE.t.t0); },
    selected() { return state.sel; },
    view() { return tlGeom ? { lo: tlGeom.lo, span: tlGeom.span, end: TRACE.end } : null; },
    // Where record i's bar is on the timeline, in page coordinates (its middle).
    recordBox(i) {
      const r = $('timeline').getBoundingClientRect(), g = tlGeom, row = g.rowOf.get(g.byThread ? TRACE.thread[i] : TRACE.vp[i]);
      const x0 = g.X(TRACE.start[i]), x1 = g.X(TRACE.start[i] + TRACE.dur[i]);
      return { x: r.left + (x0 + x1) / 2, y: r.top + g.TOP + row * g.ROW + g.ROW / 2, top: r.top + g.TOP + row * g.ROW, w: x1 - x0 };
    },
    // The records table's rows, in its order (all pages).
    rows() { return REC_ROWS.slice(); },
    findFrame(text) {
      let best = -1;
      for (let i = 0; i < drawn.count; i++) if (VIEW.names[VIEW.cons[drawn.node[i]]].includes(text) && (best < 0 || drawn.w[i] > drawn.w[best])) best = i;
      if (best < 0) return null;
      const r = canvas.getBoundingClientRect();
      return { x: r.left + drawn.x[best] + Math.min(drawn.w[best] / 2, 30), y: r.top + drawn.yOf(drawn.row[best]) + FRAME_H / 2, name: VIEW.names[VIEW.cons[drawn.node[best]]] };
    },
  };
  // Named record sets in the address open the page on its trace.
  showTab(DATA.trace && loadSets() ? 'trace' : TABS.length ? TABS[0][0] : 'tree');
  requestAnimationFrame(() => {
    window.hpmExplorer.firstRenderMs = performance.now() - T_START;
    window.hpmExplorer.timings = timings;
    window.hpmExplorer.firstRenderAt = performance.now();
    document.body.dataset.ready = '1';
  });
})();
