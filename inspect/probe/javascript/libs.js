// dapscope JavaScript probe: libraries — data libraries recognised by duck
// typing (apache-arrow Table and Vector, arquero tables, nodejs-polars
// DataFrame and Series), shown as tables exactly like arrays of records.
// Nothing is imported: an object is recognised by its shape (own fields,
// methods on its prototypes; a polars object, which is a Proxy, by its
// target as util.inspect shows it without running a trap), and read through
// the library's own side-effect-free methods: head rows cell by cell, the
// first LIB_ROWS rows of a column, or the numeric typed arrays the library
// exposes (whole columns, exact statistics). danfojs is not recognised: it
// does not install from the npm registry alone (see docs/inspect.md).

const LIB_ROWS = OBJ_SAMPLE;  // rows of a non-numeric column read for statistics

const fnOf = (v, k) => typeof dataValue(v, k) === 'function';
const ownData = (v, k) => { const d = getDesc(v, k); return d && 'value' in d ? d.value : undefined; };

// A column source: {n, names, dtypes, nulls (library counts or null),
// cells(j, i0, i1) -> values of rows i0..i1-1, values(j, m) -> {vals, full}
// where full is a numeric typed array of all n rows when the library has
// one (no nulls), else vals holds the first m rows (nulls as null)}.

function arrowDtype(vec) {
  try { return S(vec.type); } catch (e) { return 'unknown'; }
}

// arrowValues: the column's numeric typed array when it is one chunk
// without nulls of a plain number type (not a Bool bitmap, a dictionary's
// keys, 64-bit integers or dates), else its first m values (get() keeps nulls, toArray()
// would turn them into zeros).
function arrowValues(vec, m) {
  const chunks = ownData(vec, 'data');
  const n = vec.length;
  if (isArray(chunks) && chunks.length === 1 && vec.nullCount === 0) {
    const d = chunks[0], vals = ownData(d, 'values'), off = ownData(d, 'offset') || 0;
    const stride = ownData(vec, 'stride') || 1;
    if (stride === 1 && vals && T && T.isTypedArray(vals) && !T.isBigInt64Array(vals) && !T.isBigUint64Array(vals) &&
        apply(taLength, vals, []) >= off + n && /^(Int(8|16|32)|Uint(8|16|32)|Float(32|64))$/.test(arrowDtype(vec))) {
      return { full: vals.subarray(off, off + n) };
    }
  }
  if (vec.nullCount === 0) {
    const a = vec.slice(0, m).toArray();
    return { vals: T && T.isTypedArray(a) ? A.from(a) : a };
  }
  const out = new A(m);
  for (let i = 0; i < m; i++) out[i] = vec.get(i);
  return { vals: out };
}

function arrowSource(t) {
  const fields = t.schema.fields;
  const vecs = fields.map((f, j) => t.getChildAt(j));
  return {
    type: className(t), detected: 'arrow_table', n: t.numRows, names: fields.map((f) => S(f.name)),
    dtypes: vecs.map(arrowDtype), nulls: vecs.map((v) => v.nullCount),
    cells: (j, i0, i1) => { const out = []; for (let i = i0; i < i1; i++) out.push(vecs[j].get(i)); return out; },
    values: (j, m) => arrowValues(vecs[j], m),
  };
}

function arrowVectorSource(v) {
  return {
    type: className(v), detected: 'series', n: v.length, names: [''], dtypes: [arrowDtype(v)], nulls: [v.nullCount],
    cells: (j, i0, i1) => { const out = []; for (let i = i0; i < i1; i++) out.push(v.get(i)); return out; },
    values: (j, m) => arrowValues(v, m),
  };
}

// arquero: column() is the stored array when the table is neither filtered
// nor ordered, else array() materialises the visible rows.
function arqueroSource(t) {
  const names = t.columnNames();
  const plain = !t.isFiltered() && !t.isOrdered();
  const col = (j) => {
    const c = plain ? t.column(names[j]) : t.array(names[j]);
    return c && typeof c === 'object' && !isArray(c) && !(T && T.isTypedArray(c)) && fnOf(c, 'toArray') ? c.toArray() : c;
  };
  return {
    type: className(t), detected: 'dataframe', n: t.numRows(), names: names.map(S), dtypes: null, nulls: null,
    cells: (j, i0, i1) => { const out = []; for (let i = i0; i < i1; i++) out.push(t.get(names[j], i)); return out; },
    values: (j, m) => {
      const c = col(j);
      if (T && T.isTypedArray(c) && !T.isBigInt64Array(c) && !T.isBigUint64Array(c)) return { full: c, dtype: DTYPES[apply(taTag, c, [])] };
      return { vals: c };
    },
  };
}

function polarsDtype(dt) {
  try { return S(dt).replace(/^DataType\((.*)\)$/, '$1').replace(/,\)$/, ')'); } catch (e) { return 'unknown'; }
}

function polarsValues(s, m) {
  if (s.nullCount() === 0 && s.isNumeric()) {
    const a = s.toTypedArray();
    if (T && T.isTypedArray(a) && !T.isBigInt64Array(a) && !T.isBigUint64Array(a)) return { full: a };
  }
  return { vals: s.head(m).toArray() };
}

function polarsSource(df, isDF) {
  const series = isDF ? df.getColumns() : [df];
  const n = isDF ? df.height : df.length;
  return {
    type: isDF ? 'DataFrame' : 'Series', detected: isDF ? 'dataframe' : 'series', n, names: series.map((s) => S(s.name)),
    dtypes: series.map((s) => polarsDtype(s.dtype)), nulls: series.map((s) => s.nullCount()),
    cells: (j, i0, i1) => series[j].slice(i0, i1 - i0).toArray(),
    values: (j, m) => polarsValues(series[j], m),
  };
}

// polarsKind recognises nodejs-polars' DataFrame and Series, which are
// Proxies over a plain object holding the native handle: util.inspect shows
// the target (showProxy, no custom inspect, no getters) without a trap.
function polarsKind(v) {
  if (!util || !isProxy(v)) return null;
  let s;
  try {
    s = util.inspect(v, { showProxy: true, customInspect: false, getters: false, depth: 1, maxArrayLength: 0, maxStringLength: 0, breakLength: Infinity });
  } catch (e) { return null; }
  if (/^Proxy \[ \{ _df: JsDataFrame \{/.test(s)) return 'df';
  if (/^Proxy \[ \{ _s: JsSeries \{/.test(s)) return 'series';
  return null;
}

function librarySource(v) {
  const pk = polarsKind(v);
  if (pk) return polarsSource(v, pk === 'df');
  if (isProxy(v)) return null;
  const schema = ownData(v, 'schema');
  if (schema && typeof schema === 'object' && isArray(ownData(schema, 'fields')) && isArray(ownData(v, 'batches')) && fnOf(v, 'getChildAt')) {
    return arrowSource(v);
  }
  if (isArray(ownData(v, 'data')) && typeof ownData(v, 'stride') === 'number' && typeof ownData(v, 'length') === 'number' &&
      typeof ownData(v, 'type') === 'object' && fnOf(v, 'toArray') && fnOf(v, 'get')) {
    return arrowVectorSource(v);
  }
  if (isArray(ownData(v, '_names')) && typeof ownData(v, '_nrows') === 'number' && ownData(v, '_data') &&
      fnOf(v, 'columnNames') && fnOf(v, 'numRows') && fnOf(v, 'array') && fnOf(v, 'get')) {
    return arqueroSource(v);
  }
  return null;
}

// inspectLibrary fills res for a recognised library value; false when v is
// not one. A library method that throws leaves a partial result with a
// warning, never an error.
function inspectLibrary(v, opts, B, res) {
  let src;
  try { src = librarySource(v); } catch (e) { return false; }
  if (!src) return false;
  res.type = src.type; res.detected_type = src.detected;
  PREC.cell = TABLE_CELL;
  try {
    inspectColumns(src, opts, B, res);
  } catch (e) {
    res.warnings.push('reading the ' + src.type + ' failed part way: ' + errText(e));
    res.partial = true;
  }
  return true;
}

// inspectColumns: a table (or one column: a series) from a column source,
// in the shape inspectRecords gives an array of records.
function inspectColumns(src, opts, B, res) {
  const n = N(src.n), names = src.names, ncols = names.length, series = src.detected === 'series';
  const columns = names.map((c, j) => {
    const col = { name: c };
    if (src.dtypes) col.dtype = src.dtypes[j];
    if (src.nulls) col.null_count = N(src.nulls[j]);
    return col;
  });
  const st = res.structure = series ? { shape: [n], length: n } : { shape: [n, ncols], column_count: ncols };
  if (series) {
    if (src.dtypes) st.dtype = src.dtypes[0];
    if (names[0]) st.series_name = names[0];
  }
  st.columns = columns;
  st.index = { type: 'positions', length: n, start: 0, stop: n, step: 1, is_unique: true, dtype: 'number' };
  // Preview: head and tail rows, read column by column.
  const pc = M.min(ncols, PREVIEW_COLUMNS);
  const rows = N(opts.max_preview_rows || 5);
  const headN = M.min(rows, n);
  const tailN = n > rows ? M.max(1, M.floor(rows / 2)) : 0;
  const start = M.max(rows, n - tailN);
  const tr = new Trunc();
  const heads = [], tails = [];
  for (let j = 0; j < pc; j++) {
    heads.push(src.cells(j, 0, headN));
    if (tailN) tails.push(src.cells(j, start, n));
  }
  const pv = res.preview = { columns: names.slice(0, pc), head: [] };
  if (pc < ncols) res.warnings.push('preview shows the first ' + pc + ' of ' + ncols + ' columns');
  for (let i = 0; i < headN; i++) pv.head.push({ index: i, values: heads.map((c) => cell(c[i], 1, tr)) });
  if (tailN) {
    pv.tail = [];
    for (let i = start; i < n; i++) pv.tail.push({ index: i, values: tails.map((c) => cell(c[i - start], 1, tr)) });
    pv.omitted_rows = start - rows;
  }
  if (tr.hit) pv.is_truncated = true;
  // Column types, nulls, statistics: one pass per column.
  const stats = opts.include_statistics !== false ? (series ? {} : { columns: [] }) : null;
  let firstRows = false;
  for (let j = 0; j < ncols && stats && j < STAT_COLUMNS; j++) {
    const label = series ? 'statistics' : 'statistics.columns[' + j + ']';
    if (!B.ok(label)) break;
    const cst = series ? stats : { name: names[j] };
    const got = src.values(j, M.min(n, LIB_ROWS));
    let dtype, nulls;
    if (got.full) {
      const a = got.full, len = apply(taLength, a, []);
      numStats(a, len, cst, DTYPES[apply(taTag, a, [])].indexOf('float') < 0, B, label);
      dtype = got.dtype || 'number'; nulls = 0;
    } else {
      const vals = got.vals, m = vals.length;
      const r = valueStats(vals, m, cst, B, label);
      if (!r) break;
      dtype = r.dtype; nulls = r.nulls;
      if (m < n) { firstRows = true; cst.sampled = true; cst.sample_size = m; nulls = undefined; }
    }
    if (!series) { delete cst.count; stats.columns.push(cst); }
    if (!src.dtypes) columns[j].dtype = dtype;
    if (!src.nulls && nulls !== undefined) columns[j].null_count = nulls;
  }
  if (stats) res.statistics = stats;
  if (series && stats) stats.count = n;
  if (firstRows) res.warnings.push('statistics of non-numeric columns cover their first ' + commas(LIB_ROWS) + ' rows');
  if (stats && ncols > STAT_COLUMNS) res.warnings.push('statistics cover the first ' + STAT_COLUMNS + ' of ' + ncols + ' columns');
}
