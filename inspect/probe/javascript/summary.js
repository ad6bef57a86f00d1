// dapscope JavaScript probe: summaries — P.summarize, one-line facts of many
// values in ONE evaluate, for the editor's smart values (hover, Watch,
// Variables) and agents' stop reports, snapshots and debug_variables:
// arrays of records and library tables (shape, nulls per column), typed
// arrays and library series (dtype, length, NaN/inf, min/max), and every
// other value by a bounded text of its own (scalars, strings, arrays, Maps,
// Sets, objects by their own data properties), cut between items, never
// inside one. The answer has the shape of inspect.ValueSummary. Cheap facts
// only, bounded by args.timeout; no getter, toString or trap runs.

const SUM_STR = LIMITS.sum_str; // characters of a summary's text

// briefItem is a value inside a summary's text: primitives as themselves
// (strings cut at 24 characters), containers and objects by kind and size.
function briefItem(v) {
  const t = typeof v;
  if (t === 'string') return quoteJS(cut(v, 24));
  if (v === null || (t !== 'object' && t !== 'function')) return scalarText(v);
  switch (tag(v)) {
    case 'Array': return 'Array(' + v.length + ')';
    case 'Date': return dateText(v);
    case 'Map': return 'Map(' + apply(mapSize, v, []) + ')';
    case 'Set': return 'Set(' + apply(setSize, v, []) + ')';
    case 'TypedArray': case 'Buffer': return className(v) + '(' + apply(taLength, v, []) + ')';
    case 'function': return funcRepr(v);
    case 'Proxy': return 'Proxy';
  }
  const c = className(v);
  return c === 'Object' ? '{…}' : c;
}

function quoteJS(s) { return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'"; }

function scalarText(v) {
  const t = typeof v;
  if (t === 'bigint') return bigText(v) + 'n';
  if (t === 'symbol') return apply(symToString, v, []);
  if (t === 'number' && v === 0 && 1 / v < 0) return '-0';
  return S(v);
}

// boundedText joins open, the parts next() gives (null: no more) and close
// within SUM_STR characters, ending with … where parts were left out.
function boundedText(open, next, close) {
  let out = open, first = true;
  for (let p = next(); p !== null; p = next()) {
    const add = (first ? '' : ', ') + p;
    if (out.length + add.length + close.length > SUM_STR - 3) { out += (first ? '' : ', ') + ELL; break; }
    out += add;
    first = false;
  }
  return out + close;
}

// textOf is the summary text of a container or an object.
function textOf(v, k) {
  if (k === 'Array') {
    let i = 0;
    const n = v.length;
    return boundedText('[', () => {
      if (i >= n) return null;
      const d = getDesc(v, i++);
      return d === undefined ? '<empty>' : 'value' in d ? briefItem(d.value) : '[Getter]';
    }, ']');
  }
  if (k === 'Map' || k === 'Set') {
    const it = apply(k === 'Map' ? mapEntries : setValues, v, []), nx = k === 'Map' ? iterNext : setIterNext;
    return boundedText(k + '(' + apply(k === 'Map' ? mapSize : setSize, v, []) + ') {', () => {
      const r = apply(nx, it, []);
      if (r.done) return null;
      return k === 'Map' ? briefItem(r.value[0]) + ' => ' + briefItem(r.value[1]) : briefItem(r.value);
    }, '}');
  }
  const ks = keysOf(v), c = className(v);
  let i = 0;
  return boundedText((c === 'Object' ? '' : c + ' ') + '{', () => {
    if (i >= ks.length) return null;
    const key = ks[i++], d = getDesc(v, key);
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : quoteJS(cut(key, 24));
    return name + ': ' + (d && 'value' in d ? briefItem(d.value) : '[Getter]');
  }, '}');
}

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

// summaryNumbers: NaN, inf, min and max of xs[0..n-1] (a typed array of
// numbers), in one loop without calls (fast while paused).
function summaryNumbers(it, xs, n, B) {
  let nan = 0, inf = 0, mn = Infinity, mx = -Infinity;
  for (let i = 0; i < n; i++) {
    if ((i & 0xffff) === 0xffff && !B.ok('summaries')) return;
    const x = xs[i];
    if (x !== x) nan++;
    else if (x === Infinity || x === -Infinity) inf++;
    else { if (x < mn) mn = x; if (x > mx) mx = x; }
  }
  if (nan) it.nan = nan;
  if (inf) it.inf = inf;
  if (mn <= mx) { it.min = num(mn, CELL); it.max = num(mx, CELL); }
}

// summaryRecords: shape and nulls per column, counted column by column by
// the column's compiled loop (fieldFns: fast even while paused).
function summaryRecords(a, n, rc, it, B) {
  const cols = rc.columns;
  it.kind = 'dataframe'; it.type = 'Array'; it.shape = [n, cols.length];
  if (rc.partial) return; // rows not all checked for getters in time: shape only
  const counts = new A(cols.length).fill(0);
  for (let j = 0; j < cols.length; j++) {
    const key = cols[j];
    if (rc.accessors.has(key)) continue;
    if (!B.ok('summaries')) return; // out of time: shape only
    const f = fieldFns(key);
    if (f) { counts[j] = f.nulls(a, n); continue; }
    let c = 0;
    for (let i = 0; i < n; i++) {
      const r = a[i];
      if (r === null || r === undefined) c++;
      else { const v = r[key]; if (v === null || v === undefined) c++; }
    }
    counts[j] = c;
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
    if (got.full) summaryNumbers(it, got.full, apply(taLength, got.full, []), B);
  }
}

function summarizeValue(v, it, B) {
  const k = tag(v);
  if (k === 'Array') {
    const n = v.length;
    const rc = recordColumns(v, n, B);
    if (rc) return summaryRecords(v, n, rc, it, B);
    it.kind = 'container'; it.type = 'Array'; it.len = n; it.value = textOf(v, k);
    return;
  }
  if (k === 'Map' || k === 'Set') {
    it.kind = 'container'; it.type = className(v); it.len = apply(k === 'Map' ? mapSize : setSize, v, []); it.value = textOf(v, k);
    return;
  }
  if (k === 'TypedArray') {
    const name = apply(taTag, v, []), n = apply(taLength, v, []);
    it.kind = 'ndarray'; it.type = className(v); it.dtype = DTYPES[name] || name; it.shape = [n];
    if (name !== 'BigInt64Array' && name !== 'BigUint64Array') summaryNumbers(it, v, n, B);
    return;
  }
  if (k === 'Object' || k === 'Proxy') {
    let src = null;
    try { src = librarySource(v); } catch (e) { src = null; }
    if (src) return summaryLibrary(src, it, B);
    it.kind = 'object'; it.type = k === 'Proxy' ? 'Proxy' : className(v);
    if (k === 'Object') { it.attrs = keysOf(v).length; it.value = textOf(v, k); }
    return;
  }
  it.type = typeName(v);
  const t = typeof v;
  if (t === 'string') {
    it.kind = 'text'; it.len = v.length;
    it.value = quoteJS(cut(v, SUM_STR));
  } else if (t === 'function') {
    it.kind = isClass(v) ? 'class' : 'function';
    const n = dataValue(v, 'name');
    it.name_of = typeof n === 'string' && n ? n : '(anonymous)';
  } else if (v === null || t !== 'object') {
    it.kind = 'scalar'; it.value = scalarText(v);
  } else {
    // dates, regexps, errors, promises, buffers, weak collections
    it.kind = k === 'Date' || k === 'RegExp' ? 'scalar' : 'object';
    it.value = cut(repr(v, new Trunc(), MAX_DEPTH), SUM_STR);
  }
}

// P.summarize(thunks, ARGS_JSON): args.names[i] is the path whose root
// thunks[i] reads in the frame. One JSON string: {items: [...]}.
P.summarize = function (thunks, argsJSON) {
  try {
    const args = J.parse(argsJSON);
    VG.gen = args.gen;
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
        // a let/const/class not initialised yet (its declaration is ahead)
        if (e instanceof ProbeError && / before initialization/.test(e.message)) { it.kind = 'scalar'; it.value = '<uninitialized>'; } else it.error = e instanceof ProbeError ? e.message : errText(e);
      }
      if (B.timedOut.length && !it.error) it.skipped = 'time budget';
    }
    return J.stringify({ items });
  } catch (e) {
    return errorJSON(e);
  }
};
