// dapscope JavaScript probe: tables — arrays of records as tables (like a
// DataFrame: columns with types, nulls, statistics, duplicate rows, an
// estimated memory, head/tail), typed arrays (like numpy arrays) and
// buffers.

// recordColumns recognises an array of records (sampleColumns) whose
// every row is checked for getters and proxies (verifyRows): what an
// inspection, which reads every cell, needs. A browse checks only what a
// page reads (rowcheck.js).
function recordColumns(a, n, B) {
  const rc = sampleColumns(a, n);
  if (!rc) return null;
  const checked = verifyRows(a, n, rc.proto, rc.columns, rc.accessors, B);
  if (checked === 'bad') return null;
  rc.partial = checked === 'partial';
  return rc;
}

// sampleColumns: up to ROW_SAMPLE evenly spaced rows are objects of one
// shape family (plain or one class, no Proxy on its prototypes), with keys
// shared by most rows. Returns the column names (first-seen order), the
// keys that are accessors on a sampled row (never read) and the rows'
// prototype, or null. A sampled row whose own keys are those of the row
// before it, in the same order, is counted without looking at its
// descriptors again (rows made alike, the common case, cost a third as
// much).
function sampleColumns(a, n) {
  if (!n) return null;
  const step = n > ROW_SAMPLE ? M.floor(n / ROW_SAMPLE) : 1;
  const seen = new Map();
  const accessors = new Set();
  let rows = 0, proto, prevKeys = null, prevIdx = null;
  const counts = [];
  for (let i = 0, k = 0; i < n && k < ROW_SAMPLE; i += step, k++) {
    const d = getDesc(a, i);
    if (!d || !('value' in d)) return null;
    const r = d.value;
    if (r === null || r === undefined) continue;
    if (typeof r !== 'object' || isProxy(r)) return null;
    const p = getProto(r);
    // a row of the first row's prototype is of its kind: the brand checks
    // (tag) once per prototype
    if (proto === undefined) {
      if (isArray(r) || tag(r) !== 'Object') return null;
      proto = p;
    } else if (p !== proto) {
      if (!(p === ObjectProto && proto === null) && !(p === null && proto === ObjectProto)) return null;
      if (isArray(r) || tag(r) !== 'Object') return null;
    }
    rows++;
    const ks = keysOf(r);
    let same = prevKeys !== null && ks.length === prevKeys.length;
    for (let q = 0; same && q < ks.length; q++) same = ks[q] === prevKeys[q];
    if (same) {
      for (let q = 0; q < prevIdx.length; q++) counts[prevIdx[q]]++;
      continue;
    }
    const idx = [];
    for (let q = 0; q < ks.length; q++) {
      const key = ks[q];
      let j = seen.get(key);
      if (j === undefined) {
        if (seen.size >= MAX_COLUMNS) return null;
        j = seen.size;
        seen.set(key, j);
        counts.push(0);
      }
      counts[j]++;
      idx.push(j);
      if (!accessors.has(key) && !('value' in getDesc(r, key))) accessors.add(key);
    }
    prevKeys = ks; prevIdx = idx;
  }
  if (!rows || !seen.size) return null;
  let best = 0;
  for (let j = 0; j < counts.length; j++) if (counts[j] > best) best = counts[j];
  if (best * 2 < rows) return null;
  if (proto !== null && proto !== ObjectProto) {
    for (let p = proto; p !== null && p !== ObjectProto; p = getProto(p)) if (isProxy(p)) return null;
  }
  return { columns: A.from(seen.keys()), accessors, proto };
}

// dataElements is a, or when an element of a is an accessor (own, or on a
// prototype for a hole) a copy with undefined there: what loops over every
// element read, never running a getter.
function dataElements(a, n) {
  let i = 0;
  while (i < n && lookupGetter(a, i) === undefined) i++;
  if (i === n) return a;
  const out = new A(n);
  for (let j = 0; j < n; j++) out[j] = lookupGetter(a, j) === undefined ? a[j] : undefined;
  return out;
}

// verifyRows checks every row, not only the sampled ones, before any field
// is read by a plain a[i][key]: a row is an element that is data (no getter
// on the array or its prototypes), null or a non-Proxy object of the
// sampled rows' prototype (a Proxy or another kind of row: 'bad', not a
// table); a column with a getter on any row (own, or inherited where the
// row lacks the key) joins accessors, and is never read. One lookupGetter
// per cell (~20 ns; 0.5 s for 1,000,000 rows of 8 fields in a paused V8),
// so what it found is kept per array while the values are the same
// (VG.gen), and it stops at B's deadline ('partial': the caller reads no
// cell; the next call goes on from there).
const VERIFIED = { gen: undefined, arrays: new WeakMap() };

function verifyRows(a, n, proto, columns, accessors, B) {
  const key = columns.join('\u0000');
  if (VERIFIED.gen !== VG.gen || VG.gen === undefined) { VERIFIED.gen = VG.gen; VERIFIED.arrays = new WeakMap(); }
  let e = VERIFIED.arrays.get(a);
  if (!e || e.n !== n || e.key !== key || e.proto !== proto) {
    e = { n, key, proto, next: 0, hits: new Uint8Array(columns.length), bad: false };
    for (let q = 0; q < columns.length; q++) if (accessors.has(columns[q])) e.hits[q] = 1;
    VERIFIED.arrays.set(a, e);
  }
  while (!e.bad && e.next < n) {
    const to = M.min(n, e.next + 65536);
    if (VERIFY(a, e.next, to, proto, columns, e.hits, true, lookupGetter, isProxy, getProto, ObjectProto) >= 0) e.bad = true;
    e.next = to;
    if (e.next < n && B && !B.ok('rows checked for getters')) return 'partial';
  }
  if (e.bad) return 'bad';
  for (let q = 0; q < columns.length; q++) if (e.hits[q]) accessors.add(columns[q]);
  return 'ok';
}

// VERIFY is verifyRows' loop over rows from..to-1, compiled once by new
// Function (as the field loops below): hits[q] set where a row has a
// getter for cols[q]; the first row that is not data (rows: checked
// first; false: the rows were checked before) ends it, answered (-1: none).
const VERIFY = new Function('a', 'from', 'to', 'proto', 'cols', 'hits', 'rows', 'lg', 'isP', 'getProto', 'OP',
  'const m = cols.length;\n' +
  'for (let i = from; i < to; i++) {\n' +
  '  if (rows && lg(a, i) !== undefined) return i;\n' +
  '  const r = a[i];\n' +
  '  if (r === null || r === undefined) continue;\n' +
  '  if (rows) {\n' +
  "    if (typeof r !== 'object' || isP(r)) return i;\n" +
  '    const p = getProto(r);\n' +
  '    if (p !== proto && !(p === OP && proto === null) && !(p === null && proto === OP)) return i;\n' +
  '  }\n' +
  '  for (let q = 0; q < m; q++) if (hits[q] === 0 && lg(r, cols[q]) !== undefined) hits[q] = 1;\n' +
  '}\nreturn -1;');

// Field loops compiled per field name: a loop over rows reading one field
// by a constant name, compiled once (new Function) and kept for the
// debuggee's life. V8 optimises it for good (~5 ns a row), where one loop
// whose key changes deoptimises at each new key and runs at ~150 ns a row
// in a paused program. Bounded (MAX_COLUMNS names); null past that.
const FIELD_FNS = new Map();
const FunctionCtor = Function;

function fieldFns(key) {
  let f = FIELD_FNS.get(key);
  if (f || FIELD_FNS.size >= MAX_COLUMNS || typeof key !== 'string') return f || null;
  const k = J.stringify(key);
  f = {
    // nulls(a, n): rows 0..n-1 of a whose field is null or undefined (or
    // that are themselves)
    nulls: new FunctionCtor('a', 'n', 'let c = 0; for (let i = 0; i < n; i++) { const r = a[i]; ' +
      'if (r === null || r === undefined) c++; else { const v = r[' + k + ']; if (v === null || v === undefined) c++; } } return c;'),
    // gather(a, rows, m, out): out[j] = the field of row rows[j] (rows
    // null: row j), undefined for a missing row
    gather: new FunctionCtor('a', 'rows', 'm', 'out', 'for (let j = 0; j < m; j++) { const r = a[rows === null ? j : rows[j]]; ' +
      'out[j] = r === null || r === undefined ? undefined : r[' + k + ']; } return out;'),
  };
  FIELD_FNS.set(key, f);
  return f;
}

function inspectRecords(a, opts, B, res) {
  const n = a.length;
  const rc = recordColumns(a, n, B);
  if (!rc) return false;
  const cols = rc.columns, ncols = cols.length;
  res.detected_type = 'dataframe';
  PREC.cell = TABLE_CELL;
  const st = res.structure = { shape: [n, ncols], column_count: ncols };
  const columns = cols.map((c) => ({ name: c }));
  st.columns = columns;
  st.index = { type: 'positions', length: n, start: 0, stop: n, step: 1, is_unique: true, dtype: 'number' };
  if (rc.partial) { // not all rows checked for getters in time: no cell read
    res.warnings.push('the rows were not all checked for getters within the time budget: no cell was read');
    return true;
  }
  const get = (i, c) => {
    const r = a[i];
    return r === null || r === undefined ? undefined : r[c];
  };
  // Preview: head and tail rows.
  const pc = M.min(ncols, PREVIEW_COLUMNS);
  const rows = N(opts.max_preview_rows || 5);
  const tailN = n > rows ? M.max(1, M.floor(rows / 2)) : 0;
  const tr = new Trunc();
  const row = (i) => ({ index: i, values: cols.slice(0, pc).map((c) => rc.accessors.has(c) ? '<getter>' : cell(get(i, c), 1, tr)) });
  const pv = res.preview = { columns: cols.slice(0, pc), head: [] };
  if (pc < ncols) res.warnings.push('preview shows the first ' + pc + ' of ' + ncols + ' columns');
  for (let i = 0; i < M.min(rows, n); i++) pv.head.push(row(i));
  if (tailN) {
    const start = M.max(rows, n - tailN);
    pv.tail = [];
    for (let i = start; i < n; i++) pv.tail.push(row(i));
    pv.omitted_rows = start - rows;
  }
  if (tr.hit) pv.is_truncated = true;
  if (rc.accessors.size) res.warnings.push('columns with getters are listed, never read: ' + A.from(rc.accessors).join(', '));
  // Column types, nulls, statistics: one pass per column.
  const stats = opts.include_statistics !== false ? { columns: [] } : null;
  if (stats) res.statistics = stats;
  for (let j = 0; j < ncols; j++) {
    const c = cols[j];
    if (rc.accessors.has(c)) { columns[j].dtype = 'getter'; continue; }
    const full = stats && j < STAT_COLUMNS;
    if (!B.ok(full ? 'statistics.columns[' + j + ':]' : 'null_counts')) break;
    const cst = { name: c };
    let r;
    if (full) {
      // The column's values and their primitive kinds, in one pass.
      const vals = new A(n);
      let i = 0, nNum = 0, nStr = 0, nBool = 0, nNull = 0, nUndef = 0, other = 0;
      for (; i < n; i++) {
        if ((i & 0xffff) === 0xffff && !B.ok('statistics.columns[' + j + ':]')) break;
        const row = a[i];
        const v = row === null || row === undefined ? undefined : row[c];
        vals[i] = v;
        const t = typeof v;
        if (t === 'number') nNum++;
        else if (t === 'string') nStr++;
        else if (t === 'boolean') nBool++;
        else if (t === 'undefined') nUndef++;
        else if (v === null) nNull++;
        else other++;
      }
      if (i < n) break; // out of time part way through a column
      const counted = other ? undefined : { nNum, nStr, nBool, nNull, nUndef };
      r = valueStats(vals, n, cst, B, 'statistics.columns[' + j + ']', counted);
      if (!r) break;
      delete cst.count;
      stats.columns.push(cst);
    } else {
      r = { dtype: 'unknown', nulls: 0 };
      const kinds = {};
      for (let i = 0; i < n; i++) { const k = valueKind(get(i, c)); kinds[k] = (kinds[k] || 0) + 1; }
      r.nulls = (kinds.null || 0) + (kinds.undefined || 0);
      const present = keysOf(kinds).filter((k) => k !== 'null' && k !== 'undefined');
      r.dtype = present.length === 1 ? present[0] : present.length ? 'mixed' : 'null';
    }
    columns[j].dtype = r.dtype;
    columns[j].null_count = r.nulls;
  }
  if (stats && ncols > STAT_COLUMNS) res.warnings.push('statistics cover the first ' + STAT_COLUMNS + ' of ' + ncols + ' columns');
  // Duplicate rows on the Python probe's terms (tables up to SAMPLE rows
  // and 50 columns), when every cell is a primitive or a Date.
  if (stats && n <= SAMPLE && ncols <= 50 && n > 0 && B.ok('duplicate_rows')) {
    const dup = duplicateRows(a, n, cols, rc.accessors);
    if (dup !== null) stats.duplicate_rows = dup;
  }
  recordsMemory(a, n, cols, rc.accessors, !!opts.deep_memory, st, B);
  return true;
}

// duplicateRows counts the rows equal to an earlier one (by their cells'
// types and values; NaN equals NaN, as in pandas); null when a cell is an
// object other than a Date (objects compare by identity, not value).
function duplicateRows(a, n, cols, accessors) {
  const seen = new Set();
  let dup = 0;
  for (let i = 0; i < n; i++) {
    const r = a[i];
    let key = '';
    for (let j = 0; j < cols.length; j++) {
      if (accessors.has(cols[j])) continue;
      const v = r === null || r === undefined ? undefined : r[cols[j]];
      const t = typeof v;
      if (v === null) key += 'z|';
      else if (t === 'string') key += 's' + v.length + ':' + v + '|';
      else if (t === 'number' || t === 'boolean' || t === 'undefined') key += t[0] + S(v) + '|';
      else if (t === 'bigint') key += 'g' + bigText(v) + '|';
      else if (tag(v) === 'Date') key += 'd' + apply(dateGetTime, v, []) + '|';
      else return null;
    }
    if (seen.has(key)) dup++; else seen.add(key);
  }
  return dup;
}

// recordsMemory estimates an array of records' size in V8 (which reports
// none): the array's slots and each record's header and fields; with
// deep_memory also its strings' characters (read over the whole array,
// within the budget). Always an estimate: memory_estimated.
function recordsMemory(a, n, cols, accessors, deep, st, B) {
  let bytes = 16 + 8 * n + n * (24 + 8 * cols.length);
  if (deep) {
    for (let i = 0; i < n; i++) {
      if (late(i, B, 'memory')) return;
      const r = a[i];
      if (r === null || r === undefined) continue;
      for (let j = 0; j < cols.length; j++) {
        if (accessors.has(cols[j])) continue;
        const v = r[cols[j]];
        if (typeof v === 'string') bytes += 16 + v.length;
        else if (v !== null && typeof v === 'object') bytes += 32;
      }
    }
    st.memory_deep = true;
  }
  st.memory_bytes = bytes;
  st.memory_estimated = true;
}

const DTYPES = { Int8Array: 'int8', Uint8Array: 'uint8', Uint8ClampedArray: 'uint8', Int16Array: 'int16', Uint16Array: 'uint16',
  Int32Array: 'int32', Uint32Array: 'uint32', Float32Array: 'float32', Float64Array: 'float64', BigInt64Array: 'int64',
  BigUint64Array: 'uint64', Float16Array: 'float16' };

function edgeValues(get, n, k) {
  const out = [];
  if (n <= 2 * k) { for (let i = 0; i < n; i++) out.push(get(i)); return out; }
  for (let i = 0; i < k; i++) out.push(get(i));
  out.push(ELL);
  for (let i = n - k; i < n; i++) out.push(get(i));
  return out;
}

function inspectTyped(a, opts, B, res) {
  const name = apply(taTag, a, []);
  const n = apply(taLength, a, []);
  const dtype = DTYPES[name] || name;
  res.type = className(a); res.detected_type = 'ndarray';
  const bpe = dataValue(a, 'BYTES_PER_ELEMENT') || 1;
  res.structure = { shape: [n], ndim: 1, size: n, dtype: dtype, itemsize: bpe, nbytes: n * bpe };
  const big = dtype === 'int64' || dtype === 'uint64';
  const tr = new Trunc();
  // edge items: half of max_preview_items at each end (as numpy arrays)
  const k = M.max(1, M.floor(N(opts.max_preview_items || 10) / 2));
  PREC.cell = TABLE_CELL;
  res.preview = { values: edgeValues((i) => (big ? bigText(a[i]) : cell(a[i], 1, tr)), n, k) };
  if (n > 2 * k) res.preview.is_truncated = true;
  if (opts.include_statistics === false || !n) return;
  if (!B.ok('statistics')) return;
  const s = res.statistics = {};
  let xs = a;
  if (big) { xs = new Float64Array(n); for (let i = 0; i < n; i++) xs[i] = N(a[i]); }
  numStats(xs, n, s, dtype.indexOf('float') < 0, B, 'statistics');
  if (big && s.min !== undefined) {
    let mn = a[0], mx = a[0];
    for (let i = 1; i < n; i++) { if (a[i] < mn) mn = a[i]; if (a[i] > mx) mx = a[i]; }
    s.min = bigText(mn); s.max = bigText(mx);
  }
}

// inspectBytes: a Buffer (text preview of its bytes, like Python bytes) or
// an ArrayBuffer / SharedArrayBuffer (its length and first bytes).
function inspectBytes(b, k, B, res) {
  const n = k === 'Buffer' ? apply(taLength, b, []) : apply(abByteLength, b, []);
  const u8 = k === 'Buffer' ? b : new Uint8Array(b, 0, M.min(n, 250));
  res.type = className(b); res.detected_type = 'bytes';
  res.structure = { length: n, nbytes: n };
  const esc = (i) => {
    const c = u8[i];
    if (c === 92) return '\\\\';
    if (c >= 32 && c < 127) return S.fromCharCode(c);
    if (c === 10) return '\\n';
    if (c === 13) return '\\r';
    if (c === 9) return '\\t';
    return '\\x' + (c < 16 ? '0' : '') + c.toString(16);
  };
  let text = '';
  const head = M.min(n, 200);
  for (let i = 0; i < head; i++) text += esc(i);
  if (k === 'Buffer' && n > 250) {
    text += ELL;
    for (let i = n - 50; i < n; i++) text += esc(i);
  } else if (n > head) text += ELL;
  res.preview = { text };
  if (n > 250 || (k !== 'Buffer' && n > head)) res.preview.is_truncated = true;
}
