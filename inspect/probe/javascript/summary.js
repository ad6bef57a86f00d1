// dapscope JavaScript probe: summaries — P.summarize, one-line facts of many
// values in ONE evaluate, for the editor's smart values (hover, Watch,
// Variables): arrays of records and library tables (shape, nulls per
// column), typed arrays and library series (dtype, length, NaN/inf,
// min/max). The answer has the shape of inspect.ValueSummary; other values
// only get their kind. Cheap facts only, bounded by args.timeout.

// summaryNulls: per-column null counts -> total, the 3 worst columns, how
// many columns have nulls.
function summaryNulls(it, names, counts) {
  let total = 0;
  const cols = [];
  for (let j = 0; j < names.length; j++) {
    const c = N(counts[j]) || 0;
    if (c > 0) { total += c; cols.push([names[j], c]); }
  }
  it.nulls = total;
  if (cols.length) {
    cols.sort((a, b) => b[1] - a[1]);
    it.null_columns = cols.slice(0, 3);
    it.null_column_count = cols.length;
  }
}

// summaryNumbers: NaN, inf, min and max of get(0..n-1) (numbers).
function summaryNumbers(it, get, n, B) {
  let nan = 0, inf = 0, mn = Infinity, mx = -Infinity;
  for (let i = 0; i < n; i++) {
    if (late(i, B, 'summaries')) return;
    const x = get(i);
    if (x !== x) { nan++; continue; }
    if (x === Infinity || x === -Infinity) { inf++; continue; }
    if (x < mn) mn = x;
    if (x > mx) mx = x;
  }
  if (nan) it.nan = nan;
  if (inf) it.inf = inf;
  if (mn <= mx) { it.min = num(mn, CELL); it.max = num(mx, CELL); }
}

function summaryRecords(a, n, rc, it, B) {
  const cols = rc.columns;
  it.kind = 'dataframe'; it.type = 'Array'; it.shape = [n, cols.length];
  const counts = new A(cols.length).fill(0);
  for (let i = 0; i < n; i++) {
    if (late(i, B, 'summaries')) return; // out of time: shape only
    const r = a[i];
    for (let j = 0; j < cols.length; j++) {
      if (rc.accessors.has(cols[j])) continue;
      const v = r === null || r === undefined ? undefined : r[cols[j]];
      if (v === null || v === undefined) counts[j]++;
    }
  }
  summaryNulls(it, cols, counts);
}

function summaryLibrary(src, it, B) {
  const series = src.detected === 'series';
  it.type = src.type;
  it.kind = src.type === 'DataFrame' ? 'polars_df' : src.type === 'Series' ? 'polars_series' : src.detected;
  it.shape = series ? [N(src.n)] : [N(src.n), src.names.length];
  if (src.nulls) {
    if (series) it.nulls = N(src.nulls[0]);
    else summaryNulls(it, src.names, src.nulls);
  }
  if (series) {
    if (src.dtypes) it.dtype = src.dtypes[0];
    const got = src.values(0, 0);
    if (got.full) summaryNumbers(it, (i) => got.full[i], apply(taLength, got.full, []), B);
  }
}

function summarizeValue(v, it, B) {
  const k = tag(v);
  if (k === 'Array') {
    const n = v.length;
    const rc = recordColumns(v, n);
    if (rc) return summaryRecords(v, n, rc, it, B);
    it.kind = 'container'; it.type = 'Array'; it.len = n;
    return;
  }
  if (k === 'TypedArray') {
    const name = apply(taTag, v, []), n = apply(taLength, v, []);
    it.kind = 'ndarray'; it.type = className(v); it.dtype = DTYPES[name] || name; it.shape = [n];
    if (name !== 'BigInt64Array' && name !== 'BigUint64Array') summaryNumbers(it, (i) => v[i], n, B);
    return;
  }
  if (k === 'Object' || k === 'Proxy') {
    let src = null;
    try { src = librarySource(v); } catch (e) { src = null; }
    if (src) return summaryLibrary(src, it, B);
    it.kind = 'object'; it.type = k === 'Proxy' ? 'Proxy' : className(v);
    return;
  }
  it.kind = typeof v === 'function' ? 'function' : (v === null || typeof v !== 'object') ? 'scalar' : 'object';
  it.type = typeName(v);
}

// P.summarize(thunks, ARGS_JSON): args.names[i] is the path whose root
// thunks[i] reads in the frame. One JSON string: {items: [...]}.
P.summarize = function (thunks, argsJSON) {
  try {
    const args = J.parse(argsJSON);
    setPrecision(null, CELL);
    const B = new Budget(N(args.timeout || 0.05));
    const names = args.names || [];
    const items = [];
    for (let i = 0; i < names.length; i++) {
      const path = names[i];
      const it = { name: pathStr(path) };
      items.push(it);
      if (!B.ok('summaries')) { it.skipped = 'time budget'; continue; }
      try {
        summarizeValue(resolve(thunks[i], path), it, B);
      } catch (e) {
        it.error = e instanceof ProbeError ? e.message : errText(e);
      }
      if (B.timedOut.length && !it.error) it.skipped = 'time budget';
    }
    return J.stringify({ items });
  } catch (e) {
    return errorJSON(e);
  }
};
