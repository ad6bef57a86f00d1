// dapscope JavaScript probe: values — the bounded repr and the
// inspection of each kind of value (primitives, strings, arrays, Map/Set,
// objects and class instances, functions, errors, dates, regexps, promises,
// proxies, weak collections, buffers), dispatched by inspectValue.

// repr is a bounded, JavaScript-style text of v: depth 2, 50 items, 256
// chars per string; getters as [Getter], cycles as [Circular]; it never
// calls toString, toJSON or valueOf.
function repr(v, tr, depth, seen) {
  tr = tr || new Trunc();
  depth = depth || 0;
  seen = seen || [];
  try {
    const t = typeof v;
    if (v === null) return 'null';
    if (t === 'undefined') return 'undefined';
    if (t === 'string') return "'" + cut(v, MAX_STR, tr).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
    if (t === 'number' || t === 'boolean') return S(v);
    if (t === 'bigint') return bigText(v) + 'n';
    if (t === 'symbol') return apply(symToString, v, []);
    const k = tag(v);
    switch (k) {
      case 'function': return funcRepr(v);
      case 'Date': return dateText(v);
      case 'RegExp': return '/' + apply(reSource, v, []) + '/' + apply(reFlags, v, []);
      case 'Error': return errText(v);
      case 'Proxy': return proxyRepr(v, tr);
      case 'Promise': return 'Promise {' + promiseState(v).state + '}';
      case 'WeakMap': case 'WeakSet': return k + ' { <items unknown> }';
      case 'ArrayBuffer': return 'ArrayBuffer { byteLength: ' + apply(abByteLength, v, []) + ' }';
    }
    if (seen.indexOf(v) >= 0) { tr.hit = true; return '[Circular]'; }
    const name = className(v);
    const parts = [];
    const more = (n) => { tr.hit = true; parts.push(ELL + (n > 0 ? ' ' + n + ' more' : '')); };
    if (depth >= MAX_DEPTH) {
      tr.hit = true;
      if (k === 'Array') return '[Array(' + v.length + ')]';
      if (k === 'Map') return '[Map(' + apply(mapSize, v, []) + ')]';
      if (k === 'Set') return '[Set(' + apply(setSize, v, []) + ')]';
      if (k === 'TypedArray' || k === 'Buffer') return '[' + name + '(' + apply(taLength, v, []) + ')]';
      return '[' + name + ']';
    }
    seen.push(v);
    try {
      if (k === 'Array' || k === 'TypedArray' || k === 'Buffer') {
        const n = k === 'Array' ? v.length : apply(taLength, v, []);
        let holes = 0;
        for (let i = 0; i < n; i++) {
          if (parts.length >= MAX_ITEMS) { more(n - i); break; }
          const d = k === 'Array' ? getDesc(v, i) : { value: v[i] };
          if (d === undefined) { holes++; continue; }
          if (holes) { parts.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>'); holes = 0; }
          parts.push('value' in d ? repr(d.value, tr, depth + 1, seen) : '[Getter]');
        }
        if (holes) parts.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
        return (k === 'Array' ? '' : name + '(' + n + ') ') + '[' + parts.join(', ') + ']';
      }
      if (k === 'Map' || k === 'Set') {
        const n = apply(k === 'Map' ? mapSize : setSize, v, []);
        const it = apply(k === 'Map' ? mapEntries : setValues, v, []);
        const next = k === 'Map' ? iterNext : setIterNext;
        for (let i = 0; i < n; i++) {
          if (i >= MAX_ITEMS) { more(n - i); break; }
          const r = apply(next, it, []);
          if (r.done) break;
          parts.push(k === 'Map' ? repr(r.value[0], tr, depth + 1, seen) + ' => ' + repr(r.value[1], tr, depth + 1, seen) : repr(r.value, tr, depth + 1, seen));
        }
        return k + '(' + n + ') {' + (parts.length ? ' ' + parts.join(', ') + ' ' : '') + '}';
      }
      const ks = ownKeys(v);
      for (let i = 0; i < ks.length; i++) {
        if (parts.length >= MAX_ITEMS) { more(ks.length - i); break; }
        const d = getDesc(v, ks[i]);
        if (!d || !d.enumerable) continue;
        const key = typeof ks[i] === 'symbol' ? '[' + apply(symToString, ks[i], []) + ']' : /^[A-Za-z_$][\w$]*$/.test(ks[i]) ? ks[i] : repr(ks[i], tr);
        parts.push(key + ': ' + ('value' in d ? repr(d.value, tr, depth + 1, seen) : d.set ? '[Getter/Setter]' : '[Getter]'));
      }
      const body = '{' + (parts.length ? ' ' + parts.join(', ') + ' ' : '') + '}';
      return name === 'Object' && getProto(v) === ObjectProto ? body : name + ' ' + body;
    } finally { seen.pop(); }
  } catch (e) {
    tr.hit = true;
    return '<unreadable: ' + errText(e) + '>';
  }
}

function funcRepr(f) {
  const n = dataValue(f, 'name');
  const name = typeof n === 'string' && n ? n : '(anonymous)';
  return isClass(f) ? '[class ' + name + ']' : '[Function: ' + name + ']';
}

// proxyRepr shows a Proxy's target and handler through util.inspect with
// showProxy, which reads them from V8 without running a trap.
function proxyRepr(p, tr) {
  if (!util) return 'Proxy <target not shown: reading it could run the handler\'s traps>';
  try {
    return cut(util.inspect(p, { showProxy: true, customInspect: false, getters: false, depth: 1, maxArrayLength: 10, maxStringLength: 64, breakLength: Infinity }), 400, tr);
  } catch (e) { return 'Proxy'; }
}

// promiseState reads a Promise's state and value through util.inspect
// (V8's internal slots, no then() attached); unknown without util.
function promiseState(p) {
  if (!util) return { state: 'unknown' };
  try {
    const s = util.inspect(p, { customInspect: false, getters: false, depth: 0, maxArrayLength: 10, maxStringLength: 200, breakLength: Infinity });
    const body = s.replace(/^Promise \{\s*/, '').replace(/\s*\}$/, '');
    if (body === '<pending>') return { state: 'pending' };
    if (body.startsWith('<rejected>')) return { state: 'rejected', value: body.slice(10).trim() };
    return { state: 'fulfilled', value: body };
  } catch (e) { return { state: 'unknown' }; }
}

// commas writes an integer with thousands separators (no ICU: its first
// use costs tens of milliseconds).
function commas(n) { return S(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }

function plural(n, noun, nouns) { return n === 1 ? '1 ' + noun : commas(n) + ' ' + (nouns || noun + 's'); }

// countTypes counts the types of up to TYPE_SAMPLE values.
function countTypes(get, n, out) {
  out = out || {};
  const m = n > TYPE_SAMPLE ? TYPE_SAMPLE : n;
  for (let i = 0; i < m; i++) {
    const t = get(i);
    out[t] = (out[t] || 0) + 1;
  }
  return out;
}

// depthOf is the nesting depth of arrays, plain objects, Maps and Sets
// (bounded breadth; a Map's values), and whether one contains itself.
function depthOf(v) {
  let selfref = false;
  const walk = (x, d, path) => {
    if (x === null || typeof x !== 'object' || isProxy(x)) return 0;
    const k = tag(x);
    const arr = k === 'Array';
    if (!arr && k !== 'Map' && k !== 'Set' && getProto(x) !== ObjectProto) return 0;
    if (path.indexOf(x) >= 0) { selfref = true; return 0; }
    if (d >= 6) return 1;
    path.push(x);
    let best = 0;
    if (k === 'Map' || k === 'Set') {
      const it = apply(k === 'Map' ? mapEntries : setValues, x, []);
      const next = k === 'Map' ? iterNext : setIterNext;
      for (let i = 0; i < 20; i++) {
        const r = apply(next, it, []);
        if (r.done) break;
        best = M.max(best, walk(k === 'Map' ? r.value[1] : r.value, d + 1, path));
      }
    } else {
      const ks = arr ? null : keysOf(x);
      const n = arr ? x.length : ks.length;
      for (let i = 0; i < n && i < 20; i++) {
        const desc = getDesc(x, arr ? i : ks[i]);
        if (desc && 'value' in desc) best = M.max(best, walk(desc.value, d + 1, path));
      }
    }
    path.pop();
    return 1 + best;
  };
  const d = walk(v, 0, []);
  return [d, selfref];
}

// inspectValue fills res for obj.
function inspectValue(obj, opts, B, res) {
  const k = tag(obj);
  const items = N(opts.max_preview_items || 10);
  const t = typeof obj;
  switch (k) {
    case 'undefined': case 'null':
      res.type = k; res.detected_type = k === 'null' ? 'none' : 'undefined'; res.structure = {}; res.summary = k;
      return;
    case 'boolean':
      res.type = 'boolean'; res.detected_type = 'bool'; res.structure = { value: obj }; res.summary = 'boolean ' + obj;
      return;
    case 'number': {
      res.type = 'number';
      res.detected_type = Number.isInteger(obj) ? 'int' : 'float';
      const v = obj !== obj ? 'NaN' : obj === Infinity ? 'Infinity' : obj === -Infinity ? '-Infinity' : obj;
      res.structure = { value: v };
      res.summary = 'number ' + (typeof v === 'number' && Object.is(v, -0) ? '-0' : S(v));
      return;
    }
    case 'bigint':
      res.type = 'bigint'; res.detected_type = 'int'; res.structure = { value: bigText(obj) };
      res.summary = 'bigint ' + cut(bigText(obj), 80) + 'n';
      return;
    case 'symbol': {
      const d = obj.description;
      res.type = 'symbol'; res.detected_type = 'symbol';
      res.structure = { value: apply(symToString, obj, []) };
      if (Symbol.keyFor(obj) !== undefined) res.structure.kind = 'registered';
      res.summary = 'symbol ' + cut(apply(symToString, obj, []), 80) + (d === undefined ? '' : '');
      return;
    }
    case 'string': return inspectString(obj, B, res);
    case 'Array': return inspectArray(obj, opts, B, res);
    case 'TypedArray': return inspectTyped(obj, opts, B, res);
    case 'Buffer': case 'ArrayBuffer': return inspectBytes(obj, k, B, res);
    case 'Map': case 'Set': return inspectMapSet(obj, k, items, B, res);
    case 'function': return inspectFunction(obj, res);
    case 'Proxy':
      if (inspectLibrary(obj, opts, B, res)) return; // nodejs-polars objects are Proxies
      res.type = 'Proxy'; res.detected_type = 'proxy';
      res.structure = { kind: typeof obj === 'function' ? 'function' : 'object' };
      res.preview = { repr: proxyRepr(obj, new Trunc()) };
      res.summary = 'Proxy (its target is shown without running the handler\'s traps)';
      if (!util) res.summary = 'Proxy';
      return;
    case 'WeakMap': case 'WeakSet':
      res.type = k; res.detected_type = k.toLowerCase(); res.structure = { class: className(obj) };
      res.summary = k + ' (size unknown: its entries cannot be enumerated from JavaScript)';
      return;
    case 'Date': {
      const text = dateText(obj);
      res.type = className(obj); res.detected_type = 'date'; res.structure = { value: text };
      if (text === 'Invalid Date') res.warnings.push('an invalid date (its time value is NaN)');
      res.summary = 'Date ' + text;
      return;
    }
    case 'RegExp': {
      const r = repr(obj);
      res.type = className(obj); res.detected_type = 'regexp';
      res.structure = { value: r, attributes: [{ name: 'lastIndex', type: 'number', repr: S(dataValue(obj, 'lastIndex')) }] };
      res.summary = 'RegExp ' + cut(r, 80);
      return;
    }
    case 'Promise': {
      const p = promiseState(obj);
      res.type = className(obj); res.detected_type = 'promise';
      res.structure = { kind: p.state };
      if (p.value !== undefined) res.preview = { repr: cut(p.value, 400) };
      if (p.state === 'unknown') res.warnings.push('the state of a Promise is not readable here (needs Node\'s util, 20.16+)');
      res.summary = 'Promise ' + p.state + (p.value !== undefined ? ': ' + cut(p.value, 60) : '');
      return;
    }
    case 'Error': return inspectError(obj, items, res);
  }
  // Objects: data libraries first (duck typing), then plain objects and
  // class instances.
  if (inspectLibrary(obj, opts, B, res)) return;
  inspectObject(obj, k, items, B, res);
}

function inspectString(s, B, res) {
  const n = s.length;
  res.type = 'string'; res.detected_type = 'str';
  const st = res.structure = { length: n };
  let lines = 0;
  if (B.ok('line_count')) {
    lines = 1;
    for (let i = apply(strIndexOf, s, ['\n']); i >= 0; i = apply(strIndexOf, s, ['\n', i + 1])) lines++;
    st.line_count = lines;
  }
  const head = 200, tail = 50;
  res.preview = { text: n <= head + tail ? s : cut(s, head) + tailOf(s, tail) };
  if (n > head + tail) res.preview.is_truncated = true;
  res.summary = 'string ' + plural(n, 'char') + (lines > 1 ? ', ' + plural(lines, 'line') : '');
}

function inspectArray(a, opts, B, res) {
  res.type = 'Array';
  if (inspectRecords(a, opts, B, res)) return;
  res.detected_type = 'list';
  const n = a.length;
  const st = res.structure = { length: n };
  const items = N(opts.max_preview_items || 10);
  const tr = new Trunc();
  // Element types over a sample; holes counted as "<empty>".
  const types = {};
  const m = M.min(n, TYPE_SAMPLE);
  let holes = 0;
  for (let i = 0; i < m; i++) {
    const d = getDesc(a, i);
    const t = d === undefined ? '<empty>' : 'value' in d ? typeName(d.value) : '<getter>';
    if (d === undefined) holes++;
    types[t] = (types[t] || 0) + 1;
  }
  if (n) st.element_types = types;
  if (holes && n > m) res.warnings.push('holes (empty slots) counted over the first ' + m + ' elements');
  const entry = (i) => {
    const d = getDesc(a, i);
    return d === undefined ? { index: i, value: null, type: '<empty>' }
      : 'value' in d ? { index: i, value: cell(d.value, 1, tr, [a]), type: typeName(d.value) }
        : { index: i, value: '<getter>', type: '<getter>' };
  };
  const headN = n <= items ? n : items - M.max(1, M.floor(items / 3));
  const pv = res.preview = { items: [] };
  for (let i = 0; i < headN; i++) pv.items.push(entry(i));
  if (n > headN) {
    tr.hit = true;
    pv.tail_items = [];
    for (let i = M.max(headN, n - (items - headN)); i < n; i++) pv.tail_items.push(entry(i));
  }
  if (B.ok('depth')) {
    const [d, selfref] = depthOf(a);
    st.depth = d;
    if (selfref) st.self_referencing = true;
  }
  if (tr.hit) pv.is_truncated = true;
  // Statistics of primitive elements (numbers, strings, booleans, dates).
  if (n && opts.include_statistics !== false && B.ok('statistics')) {
    const s = {};
    if (valueStats(dataElements(a, n), n, s, B, 'statistics') === null) return;
    delete s.element_types; // in structure already
    if (s.min !== undefined || s.top_values || s.true_count !== undefined) res.statistics = s;
  }
}

function inspectMapSet(v, k, items, B, res) {
  const n = apply(k === 'Map' ? mapSize : setSize, v, []);
  res.type = className(v); res.detected_type = k === 'Map' ? 'map' : 'set';
  const st = res.structure = { length: n };
  const it = apply(k === 'Map' ? mapEntries : setValues, v, []);
  const next = k === 'Map' ? iterNext : setIterNext;
  const kt = {}, vt = {}, out = [];
  const tr = new Trunc();
  for (let i = 0; i < n && i < TYPE_SAMPLE; i++) {
    const r = apply(next, it, []);
    if (r.done) break;
    const key = k === 'Map' ? r.value[0] : r.value, val = k === 'Map' ? r.value[1] : undefined;
    const ktn = typeName(key);
    kt[ktn] = (kt[ktn] || 0) + 1;
    if (k === 'Map') { const vtn = typeName(val); vt[vtn] = (vt[vtn] || 0) + 1; }
    if (i < items) {
      out.push(k === 'Map' ? { key: cell(key, 1, tr, [v]), value: cell(val, 1, tr, [v]), type: typeName(val) }
        : { value: cell(key, 1, tr, [v]), type: ktn });
    } else tr.hit = true;
  }
  if (n) {
    if (k === 'Map') { st.key_types = kt; st.value_types = vt; } else st.element_types = kt;
  }
  if (B.ok('depth')) {
    const [d, selfref] = depthOf(v);
    st.depth = d;
    if (selfref) st.self_referencing = true;
  }
  res.preview = { items: out };
  if (tr.hit) res.preview.is_truncated = true;
}
