// dapscope JavaScript probe: selection — P.select, one page of a table: a
// window of rows of the sorted and filtered view of an array of records, a
// typed array, a plain array, a Map's or a Set's entries, or an apache-arrow,
// arquero or nodejs-polars table, with the chosen columns and the rows'
// positions in the original value, in the shape of inspect.PageResult (the
// Python probe's _select answers the same). The filter is not run here: it
// runs in an evaluate of its own under V8's side-effect check (filter.js),
// and its answer comes back in the next call. The sorted and filtered
// orders are cached per value, selection and stop (dropped at a new stop),
// bounded in memory.

const MAX_PAGE = LIMITS.max_page;
const SEL_LIMIT = LIMITS.sel_cache_bytes;

// SEL: the stop the caches belong to, a view per value, the orders (LRU
// over all views), and the views a pending filter evaluate reads.
// P.slots holds the same entries: the filter's evaluate reads them there.
const SEL = { gen: null, views: new WeakMap(), lru: [], bytes: 0, tick: 0, pending: new Map(), next: 1 };
P.slots = O.create(null); // SEL.pending by token, for the filter's evaluate

function resetSel(gen) {
  SEL.gen = gen; SEL.views = new WeakMap(); SEL.lru = []; SEL.bytes = 0; SEL.pending.clear(); P.slots = O.create(null);
}

// A view is {kind, n, names, cols, type, check}; a column is {vals} (an
// array-like of the n values), {a, key, j, accessor} (field key of the rows
// of array a, column j: read as rowcheck.js checks them, v.check) or {lib,
// j, vals} (column j of a library source, read whole when a sort or filter
// needs it).
function colGet(c, i) {
  if (c.vals) return c.vals[i];
  const r = c.a[i];
  return r === null || r === undefined ? undefined : r[c.key];
}

// columnAt reads column c's values at rows (null: all n) into an
// array-like, in one loop (a typed array or a plain column unread: as is).
function columnAt(c, rows, n) {
  if (c.vals && !rows) return c.vals;
  const m = rows ? rows.length : n, out = new A(m);
  if (c.vals) {
    const vals = c.vals;
    for (let r = 0; r < m; r++) out[r] = vals[rows[r]];
    return out;
  }
  const a = c.a, key = c.key, f = fieldFns(key);
  if (f) return f.gather(a, rows || null, m, out);
  if (rows) {
    for (let r = 0; r < m; r++) { const x = a[rows[r]]; out[r] = x === null || x === undefined ? undefined : x[key]; }
  } else {
    for (let r = 0; r < m; r++) { const x = a[r]; out[r] = x === null || x === undefined ? undefined : x[key]; }
  }
  return out;
}

function fieldCols(a, rc, first) {
  return rc.columns.map((key, q) => ({ a, key, j: first + q, accessor: rc.accessors.has(key) }));
}

function makeView(obj) {
  const k = tag(obj);
  if (k === 'Array') {
    const n = obj.length, rc = sampleColumns(obj, n);
    if (rc) return { kind: 'records', n, names: rc.columns, cols: fieldCols(obj, rc, 0), rows: obj, check: newCheck(obj, n, rc.proto, rc.columns.length) };
    return { kind: 'list', n, names: ['value'], cols: [{ vals: dataElements(obj, n) }] };
  }
  if (k === 'TypedArray') {
    const name = apply(taTag, obj, []);
    return { kind: 'ndarray', n: apply(taLength, obj, []), names: ['value'], cols: [{ vals: obj, dtype: DTYPES[name] || name }] };
  }
  if (k === 'Map' || k === 'Set') {
    const isMap = k === 'Map';
    const n = apply(isMap ? mapSize : setSize, obj, []);
    const keys = isMap ? new A(n) : null, vals = new A(n);
    const it = apply(isMap ? mapEntries : setValues, obj, []), next = isMap ? iterNext : setIterNext;
    for (let i = 0; i < n; i++) {
      const r = apply(next, it, []);
      if (r.done) break;
      if (isMap) { keys[i] = r.value[0]; vals[i] = r.value[1]; } else vals[i] = r.value;
    }
    // entries whose values are records get the records' columns
    const rc = sampleColumns(vals, n), first = isMap ? 1 : 0;
    return { kind: isMap ? 'map' : 'set', n, names: (isMap ? ['key'] : []).concat(rc ? rc.columns : ['value']),
      cols: (isMap ? [{ vals: keys }] : []).concat(rc ? fieldCols(vals, rc, first) : [{ vals }]),
      check: rc ? newCheck(vals, n, rc.proto, first + rc.columns.length) : null };
  }
  let src = null;
  if (k === 'Object' || k === 'Proxy') {
    try { src = librarySource(obj); } catch (e) { src = null; }
  }
  if (src) {
    return { kind: src.detected === 'series' ? 'series' : 'dataframe', n: N(src.n), names: src.names.map((s) => s || 'value'), type: src.type,
      cols: src.names.map((s, j) => ({ lib: src, j, vals: null, dtype: src.dtypes ? src.dtypes[j] : null })) };
  }
  throw new ProbeError('INVALID_ARGUMENT', 'a ' + typeName(obj) + ' cannot be browsed by rows (arrays, typed arrays, Maps, Sets, and apache-arrow, arquero and nodejs-polars tables can)');
}

function viewOf(obj) {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) {
    throw new ProbeError('INVALID_ARGUMENT', 'a ' + typeName(obj) + ' cannot be browsed by rows (arrays, typed arrays, Maps, Sets, and apache-arrow, arquero and nodejs-polars tables can)');
  }
  let v = SEL.views.get(obj);
  if (!v) {
    v = makeView(obj);
    v.orders = new Map();
    v.dtypes = [];
    SEL.views.set(obj, v);
  }
  return v;
}

// columnValues reads a library column whole (once per view).
function columnValues(c, n) {
  if (!c.vals) {
    const got = c.lib.values(c.j, n);
    c.vals = got.full || got.vals;
  }
  return c.vals;
}

// dtypeOf: a column's dtype, as inspect's structure names it: the
// library's or a typed array's; else the one kind of its values (or mixed)
// among ROW_SAMPLE evenly spaced rows and the page's own (pageKind, from
// pageRows) — the rows an array of records is recognised by; a pass over a
// million rows costs ~0.3 s in a paused V8, so the exact kind is inspect's.
function dtypeOf(v, j, pageKind) {
  const c = v.cols[j];
  if (c.dtype) return c.dtype;
  if (c.accessor) return 'getter';
  // a library without dtypes (arquero) hands out its stored columns: a
  // typed one says its dtype
  if (c.lib && T && T.isTypedArray(columnValues(c, v.n))) return DTYPES[apply(taTag, c.vals, [])];
  let kinds = v.dtypes[j];
  if (!kinds) {
    kinds = v.dtypes[j] = new Set();
    const n = v.n, step = n > ROW_SAMPLE ? M.floor(n / ROW_SAMPLE) : 1;
    const sample = [];
    for (let i = 0, k = 0; i < n && k < ROW_SAMPLE; i += step, k++) sample.push(i);
    const xs = c.a ? recordCells(v, c, sample) : null;
    for (let k = 0; k < sample.length && kinds.size < 2; k++) {
      const i = sample[k];
      const x = xs ? xs[k] : c.lib && !c.vals ? c.lib.cells(c.j, i, i + 1)[0] : colGet(c, i);
      if (x !== null && x !== undefined && hiddenText(x) === null) kinds.add(valueKind(x));
    }
  }
  const all = new Set(kinds);
  if (pageKind) all.add(pageKind);
  return all.size === 0 ? 'null' : all.size === 1 ? A.from(all)[0] : 'mixed';
}

// pageRows writes the page's cells (rows of cells from columns of values;
// primitives inline, the rest through cell) and notes each column's kind
// among them (null: only nulls; 'mixed').
function pageRows(values, m, tr, kinds) {
  // packed arrays (filled in order): JSON.stringify takes its fast path
  const rows = [], prec = PREC.cell;
  for (let r = 0; r < m; r++) rows.push([]);
  for (let k = 0; k < values.length; k++) {
    const vals = values[k];
    let kind = null;
    for (let r = 0; r < m; r++) {
      const x = vals[r], t = typeof x;
      let c, kd;
      if (t === 'number') { c = x % 1 === 0 ? x : num(x, prec); kd = 'number'; } // NaN, ±inf through num
      else if (t === 'string') { c = x.length <= MAX_STR ? x : cut(x, MAX_STR, tr); kd = 'string'; }
      else if (t === 'boolean') { c = x; kd = 'boolean'; }
      else if (x === null || t === 'undefined') { c = null; kd = null; }
      else if ((c = hiddenText(x)) !== null) kd = null; // a cell not read
      else { c = cell(x, 1, tr); kd = valueKind(x); }
      rows[r][k] = c;
      if (kd !== null && kd !== kind) kind = kind === null ? kd : 'mixed';
    }
    kinds[k] = kind;
  }
  return rows;
}

// globRe is fnmatch's pattern as a RegExp (* ? [seq] [!seq]).
function globRe(p) {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[' && p.indexOf(']', i + 2) > 0) {
      const end = p.indexOf(']', i + 2);
      let body = p.slice(i + 1, end);
      if (body[0] === '!') body = '^' + body.slice(1);
      re += '[' + body.replace(/\\/g, '\\\\') + ']';
      i = end;
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp('^' + re + '$', 's');
}

function quoted(s) { return "'" + S(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'"; }

// chooseColumns: positions of the chosen columns (names, positions, globs).
function chooseColumns(v, spec) {
  const names = v.names;
  if (!spec || !spec.length) return names.map((x, i) => i);
  const out = [];
  for (const s of spec) {
    let hits;
    if (typeof s === 'number') {
      if (!(s === M.floor(s) && s >= -names.length && s < names.length)) {
        throw new ProbeError('INVALID_ARGUMENT', 'column position ' + s + ' is outside 0..' + (names.length - 1));
      }
      hits = [(s + names.length) % names.length];
    } else if (typeof s === 'string' && /[*?[]/.test(s)) {
      const re = globRe(s);
      hits = [];
      names.forEach((l, i) => { if (re.test(l)) hits.push(i); });
    } else {
      hits = [];
      names.forEach((l, i) => { if (l === S(s)) hits.push(i); });
    }
    if (!hits.length) {
      throw new ProbeError('VARIABLE_NOT_FOUND', 'no column matches ' + quoted(s), 'columns are listed in available_variables', names.slice(0, 50));
    }
    for (const i of hits) if (out.indexOf(i) < 0) out.push(i);
  }
  return out;
}

function sortKeysOf(v, spec) {
  const cols = chooseColumns(v, spec.map((k) => k.column));
  if (cols.length !== spec.length) throw new ProbeError('INVALID_ARGUMENT', 'sort names each column once');
  checkColumns(v, cols, 'a sort by ' + cols.map((j) => quoted(v.names[j])).join(', '));
  return cols.map((j, i) => {
    const c = v.cols[j];
    if (c.accessor) {
      throw new ProbeError('INVALID_ARGUMENT', 'cannot sort by ' + quoted(v.names[j]) + ': its values are getters, which the probe never runs');
    }
    if (c.lib) columnValues(c, v.n);
    return { col: j, desc: !!spec[i].descending };
  });
}

// The cached orders: per view and key, least recently used dropped first
// over SEL_LIMIT bytes.
function cacheGet(v, key) {
  const e = v.orders.get(key);
  if (!e) return null;
  e.tick = ++SEL.tick;
  return e.pos;
}

function cachePut(v, key, pos) {
  const e = { v, key, pos, tick: ++SEL.tick, bytes: pos.byteLength };
  v.orders.set(key, e);
  SEL.lru.push(e);
  SEL.bytes += e.bytes;
  while (SEL.bytes > SEL_LIMIT && SEL.lru.length > 1) {
    let old = 0;
    for (let i = 1; i < SEL.lru.length; i++) if (SEL.lru[i].tick < SEL.lru[old].tick) old = i;
    const o = SEL.lru[old];
    if (o === e) break;
    SEL.lru.splice(old, 1);
    o.v.orders.delete(o.key);
    SEL.bytes -= o.bytes;
  }
}

// pageValues: column j's values at pos (contiguous when unsorted and
// unfiltered: a library reads them in one call).
function pageValues(v, j, pos, contiguous) {
  const c = v.cols[j];
  if (c.accessor) return pos.map(() => '<getter>');
  if (c.lib && !c.vals) {
    if (contiguous) return pos.length ? c.lib.cells(c.j, pos[0], pos[0] + pos.length) : [];
    return pos.map((p) => c.lib.cells(c.j, p, p + 1)[0]);
  }
  if (c.a) return recordCells(v, c, pos);
  return columnAt(c, pos, v.n);
}

// P.select(thunk, ARGS_JSON): args {path, selection {columns, rows,
// sort, filter}, gen, timeout, precision, slot, mask}. Answers a page, or
// {filter_needed: {expression}} when the filter's rows are not known yet:
// the sidecar evaluates that expression under the side-effect check and
// calls again with its answer as args.mask.
P.select = function (thunk, argsJSON) {
  const t0 = now();
  try {
    const args = J.parse(argsJSON);
    VG.gen = args.gen;
    const path = args.path, sel = args.selection || {};
    setPrecision(args, CELL);
    const B = new Budget(N(args.timeout || 2));
    if (SEL.gen !== args.gen) resetSel(args.gen);
    const obj = resolve(thunk, path);
    const v = viewOf(obj), n = v.n;
    const win = sel.rows || {};
    const off = M.max(0, M.floor(N(win.offset) || 0));
    const lim = M.min(MAX_PAGE, M.max(0, M.floor(win.limit === undefined ? 100 : N(win.limit) || 0)));
    const cols = chooseColumns(v, sel.columns);
    const filter = typeof sel.filter === 'string' ? sel.filter : '';
    const sort = sel.sort || [];
    let order = null, cached = false;
    if (filter || sort.length) {
      // the filter's rows are cached on their own (a new sort of them needs
      // no new filter evaluate)
      const fkey = J.stringify([filter]), key = sort.length ? J.stringify([filter, sort]) : fkey;
      order = cacheGet(v, key);
      cached = order !== null;
      if (!cached) {
        let kept = filter ? cacheGet(v, fkey) : null;
        if (filter && !kept) {
          if (typeof args.mask !== 'string') return J.stringify({ filter_needed: { expression: filterExpression(v, filter, args.slot) } });
          kept = maskRows(args.mask, n, filter);
          cachePut(v, fkey, kept);
        }
        if (sort.length) {
          order = sortRows(kept, n, sortKeysOf(v, sort), (j, rows) => columnAt(v.cols[j], rows, n));
          cachePut(v, key, order);
        } else order = kept;
      }
    }
    const total = order ? order.length : n;
    const pos = [];
    for (let i = off, end = M.min(off + lim, total); i < end; i++) pos.push(order ? order[i] : i);
    const tr = new Trunc();
    const values = cols.map((j) => pageValues(v, j, pos, !order));
    const kinds = [];
    const rows = pageRows(values, pos.length, tr, kinds);
    const page = {
      kind: v.kind, total_rows: total, all_rows: n, offset: off, limit: lim, positions: pos,
      columns: cols.map((j, k) => ({ name: v.names[j], dtype: dtypeOf(v, j, kinds[k]) })), column_count: v.names.length, cached,
    };
    if (filter) page.filter = filter;
    if (sort.length) page.sort = sort;
    const res = { name: pathStr(path), type: v.type || className(obj) };
    if (tr.hit) res.warnings = ['some cells were shortened'];
    if (!B.ok('selection')) { res.partial = true; res.timed_out = B.timedOut; }
    res.probe_ms = M.round((now() - t0) * 1000) / 1000;
    res.page = page;
    page.rows = rows;
    return J.stringify(res);
  } catch (e) {
    return errorJSON(e);
  }
};
