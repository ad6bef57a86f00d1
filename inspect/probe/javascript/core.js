// dapscope JavaScript probe: core. The sections of inspect/probe/javascript
// are joined by inspect/probe.go, after a LIMITS header, into one function
// body that returns P. It runs inside the debuggee: installed once
// under globalThis[Symbol.for('dapscope.probe.<hash>')], then called by ONE
// evaluate per inspection: P.run(() => NAME, ARGS_JSON) -> one JSON string in
// the shape of inspect.Result. It imports nothing into the program, never
// calls a user's toString/toJSON/valueOf, never invokes getters (except the
// ones a path names), and reads built-in internals through intrinsics
// captured at install time.
// This part: intrinsics, the time budget, bounded cells and reprs, type tags,
// path resolution and the entry points.

// The globals the probe uses, as locals of its function. The probe is
// compiled inside an evaluate in a paused frame, where V8 looks each free
// name up through that frame's scopes at every use (a loop comparing with
// undefined ran ~100× slower than with a local), and where a variable of
// the program's could shadow one (const Map = … in the paused function).
const { Object, Reflect, Array, String, Number, Math, JSON, Map, Set, WeakMap, WeakSet, Symbol, Date, RegExp, Error,
  ReferenceError, Promise, BigInt, Function, ArrayBuffer, Float64Array, Uint32Array, Uint8Array, Int8Array, Infinity, NaN,
  undefined } = globalThis;

const ELL = '\u2026';
// Bounds come from the sidecar (inspect/limits.go), in LIMITS: a header it
// writes in front of these sources.
const MAX_STR = LIMITS.max_str;                 // chars per string in reprs and cells
const MAX_ITEMS = LIMITS.max_items;             // items per container in reprs
const MAX_DEPTH = LIMITS.max_depth;             // nesting depth of reprs and cells
const SAMPLE = LIMITS.sample;                   // finite numbers sorted for quantiles, histogram, distinct
const OBJ_SAMPLE = LIMITS.obj_sample;           // values counted for top values and string lengths
const TYPE_SAMPLE = LIMITS.type_sample;         // elements whose types are counted (containers)
const ROW_SAMPLE = LIMITS.row_sample;           // rows looked at to recognise an array of records
const STAT_COLUMNS = LIMITS.stat_columns;       // columns that get statistics
const PREVIEW_COLUMNS = LIMITS.preview_columns; // columns shown in previews
const MAX_COLUMNS = LIMITS.max_columns;         // more distinct keys than this: not a table
const MAX_OUT = LIMITS.max_out;                 // bytes (UTF-16 units) of one answer
const STAT = LIMITS.stat_digits;                // significant digits of statistics
const CELL = LIMITS.cell_digits;                // ... of preview cells
const TABLE_CELL = LIMITS.table_cell_digits;    // ... of the preview cells of tables and arrays

// Intrinsics, captured once so that a program that replaces them cannot
// change what the probe does.
const O = Object, R = Reflect, A = Array, S = String, N = Number, M = Math, J = JSON;
const getProto = O.getPrototypeOf, ownKeys = R.ownKeys, getDesc = O.getOwnPropertyDescriptor;
const keysOf = O.keys, isArray = A.isArray, apply = R.apply, hasOwn = O.prototype.hasOwnProperty;
// lookupGetter(o, k): the getter o[k] would run (own or inherited), without
// running it and without allocating a descriptor (~20 ns); a Proxy on o's
// prototype chain would have its getOwnPropertyDescriptor trap run: callers
// check for proxies first.
const lookupGetter = Function.prototype.call.bind(O.prototype.__lookupGetter__);
const fnToString = Function.prototype.toString, objToString = O.prototype.toString;
const ObjectProto = O.prototype, FunctionProto = Function.prototype;
const dateGetTime = Date.prototype.getTime, dateISO = Date.prototype.toISOString;
const getter = (C, k) => getDesc(C.prototype, k).get;
const mapSize = getter(Map, 'size'), setSize = getter(Set, 'size');
const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
const iterNext = getProto(new Map().entries()).next, setIterNext = getProto(new Set().values()).next;
const reSource = getter(RegExp, 'source'), reFlags = getter(RegExp, 'flags');
const TypedArray = getProto(Int8Array);
const taLength = getDesc(TypedArray.prototype, 'length').get, taTag = getDesc(TypedArray.prototype, Symbol.toStringTag).get;
const abByteLength = getter(ArrayBuffer, 'byteLength');
const symToString = Symbol.prototype.toString, bigToString = BigInt.prototype.toString;
const strSlice = S.prototype.slice, strIndexOf = S.prototype.indexOf, charCodeAt = S.prototype.charCodeAt;
const now = (typeof performance === 'object' && performance && typeof performance.now === 'function')
  ? performance.now.bind(performance) : Date.now;
const BufferCtor = typeof Buffer === 'function' ? Buffer : null;
// util (Node 20.16+, 22.3+): native brand checks that never run a Proxy's
// traps, and the state of a Promise. Loaded from Node's own built-ins (no
// require, nothing added to the program's module cache); absent elsewhere.
let util = null;
try {
  if (typeof process === 'object' && process && typeof process.getBuiltinModule === 'function') {
    util = process.getBuiltinModule('node:util');
  }
} catch (e) { util = null; }
const T = util && util.types;
function ProbeError(code, message, hint, available) {
  this.code = code; this.message = message; this.hint = hint; this.available = available;
}

function Budget(seconds) {
  this.deadline = now() + seconds * 1000;
  this.timedOut = [];
}
Budget.prototype.ok = function (what) {
  heapCheck();
  if (now() < this.deadline) return true;
  if (this.timedOut.indexOf(what) < 0) this.timedOut.push(what);
  return false;
};

function Trunc() { this.hit = false; }

// VG.gen numbers the program's values (args.gen, from the sidecar: a new
// number once they may have changed); undefined: unknown, nothing kept.
const VG = { gen: undefined };

// cut shortens s to n UTF-16 units, never inside a surrogate pair.
function cut(s, n, tr) {
  if (s.length <= n) return s;
  if (tr) tr.hit = true;
  let k = n;
  const c = apply(charCodeAt, s, [k - 1]);
  if (c >= 0xd800 && c <= 0xdbff) k--;
  return apply(strSlice, s, [0, k]) + ELL;
}

// tailOf is the last n units of s, never starting inside a surrogate pair.
function tailOf(s, n) {
  let k = s.length - n;
  const c = apply(charCodeAt, s, [k]);
  if (c >= 0xdc00 && c <= 0xdfff) k++;
  return apply(strSlice, s, [k]);
}

// PREC is the precision of this call (set by each entry point): full keeps
// every number exact; otherwise statistics get STAT significant digits and
// preview cells PREC.cell (TABLE_CELL for tables and arrays, CELL else).
const PREC = { full: false, cell: CELL };

function setPrecision(opts, cellDigits) {
  PREC.full = !!opts && opts.precision === 'full';
  PREC.cell = cellDigits;
}

// num rounds a finite number to digits significant digits, exactly as the
// Python probe does (C's %.*g: the nearest, an exact tie to the even digit),
// but never into the integer part (1199.5 stays 1199.5); infinities as
// strings, NaN as null. Exact with precision full or no digits.
function num(x, digits) {
  if (x !== x) return null;
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0 || !digits || PREC.full) return x === 0 ? 0 : x;
  const a = M.abs(x);
  if (a >= 10 ** (digits - 1)) digits = M.min(17, M.floor(M.log10(a)) + 2);
  // a short binary fraction >= 1 (123.25: a / 2^j, j decimals) of at most
  // digits significant digits is its own rounding (no string made)
  if (a >= 1 && a < 1e15) {
    let f = a, j = 0, id = 1;
    while (j < 6 && f % 1 !== 0) { f *= 2; j++; }
    for (let p = 10; p <= a; p *= 10) id++;
    if (f % 1 === 0 && id + j <= digits) return x;
  }
  // toPrecision rounds a tie away from zero, %g to the even digit: a tie
  // is a number whose exact expansion ends in a 5 right after the kept
  // digits (toExponential(99) shows 100 exact significant digits). Only a
  // number whose next digit rounds to 5 can be one: the others take the
  // short way (a page of floats formats 5× faster).
  const q = a.toPrecision(digits + 1), qe = q.indexOf('e');
  if (q[(qe < 0 ? q.length : qe) - 1] !== '5') return N(x.toPrecision(digits));
  const ex = a.toExponential(99), at = ex.indexOf('e');
  const digs = ex[0] + ex.slice(2, at);
  if (digs[digits] === '5' && (digs.charCodeAt(digits - 1) & 1) === 0 && /^0*$/.test(digs.slice(digits + 1))) {
    const kept = digs[0] + '.' + digs.slice(1, digits) + ex.slice(at);
    return N((x < 0 ? '-' : '') + kept);
  }
  return N(x.toPrecision(digits));
}

function isProxy(v) { return T ? T.isProxy(v) : false; }

// protoChain lists v's prototypes (without Object.prototype), bounded.
function protoChain(v) {
  const out = [];
  let p = v;
  for (let i = 0; i < 32; i++) {
    if (isProxy(p)) break;
    p = getProto(p);
    if (p === null || p === ObjectProto) break;
    out.push(p);
  }
  return out;
}

// dataValue reads key on v or its prototypes without running a getter
// (undefined when missing or an accessor).
function dataValue(v, key) {
  let o = v;
  for (let i = 0; i < 32 && o !== null && o !== undefined; i++) {
    if (isProxy(o)) return undefined;
    const d = getDesc(o, key);
    if (d) return 'value' in d ? d.value : undefined;
    o = getProto(o);
  }
  return undefined;
}

// className is the name of v's constructor, read without getters.
function className(v) {
  if (isProxy(v)) return 'Proxy';
  const p = getProto(v);
  if (p === null) return 'Object';
  const c = dataValue(p, 'constructor');
  if (typeof c === 'function') {
    const n = dataValue(c, 'name');
    if (typeof n === 'string' && n) return n;
  }
  const tag = dataValue(v, Symbol.toStringTag);
  return typeof tag === 'string' ? tag : 'Object';
}

// tag is the probe's kind of a value (brand checks, no traps, no getters).
function tag(v) {
  const t = typeof v;
  if (v === null) return 'null';
  if (t !== 'object' && t !== 'function') return t;
  if (isProxy(v)) return 'Proxy';
  if (t === 'function') return 'function';
  if (isArray(v)) return 'Array';
  if (T) {
    if (T.isTypedArray(v)) return BufferCtor && v instanceof BufferCtor ? 'Buffer' : 'TypedArray';
    if (T.isArrayBuffer(v) || T.isSharedArrayBuffer(v)) return 'ArrayBuffer';
    if (T.isDate(v)) return 'Date';
    if (T.isRegExp(v)) return 'RegExp';
    if (T.isNativeError(v)) return 'Error';
    if (T.isMap(v)) return 'Map';
    if (T.isSet(v)) return 'Set';
    if (T.isWeakMap(v)) return 'WeakMap';
    if (T.isWeakSet(v)) return 'WeakSet';
    if (T.isPromise(v)) return 'Promise';
    if (T.isBoxedPrimitive(v)) return 'Boxed';
    if (T.isModuleNamespaceObject(v)) return 'Module';
    return v instanceof Error ? 'Error' : 'Object';
  }
  // Without util: brand checks through intrinsics that throw on other objects.
  const brand = (f) => { try { apply(f, v, []); return true; } catch (e) { return false; } };
  if (brand(taTag) && taTag.call(v) !== undefined) return BufferCtor && v instanceof BufferCtor ? 'Buffer' : 'TypedArray';
  if (brand(abByteLength)) return 'ArrayBuffer';
  if (brand(dateGetTime)) return 'Date';
  if (v !== RegExp.prototype && brand(reSource)) return 'RegExp';
  if (brand(mapSize)) return 'Map';
  if (brand(setSize)) return 'Set';
  if (v instanceof Error) return 'Error';
  if (v instanceof Promise) return 'Promise';
  if (typeof WeakMap === 'function' && v instanceof WeakMap) return 'WeakMap';
  if (typeof WeakSet === 'function' && v instanceof WeakSet) return 'WeakSet';
  return 'Object';
}

// typeName is the short type of a value for element_types and attributes.
function typeName(v) {
  const k = tag(v);
  switch (k) {
    case 'Object': case 'Error': case 'TypedArray': case 'Buffer': return className(v);
    case 'function': return isClass(v) ? 'class' : 'function';
  }
  return k;
}

function isClass(f) {
  try { return /^class\b/.test(apply(fnToString, f, [])); } catch (e) { return false; }
}

function dateText(d) {
  const t = apply(dateGetTime, d, []);
  if (t !== t) return 'Invalid Date';
  return t >= ISO_MIN && t <= ISO_MAX ? isoText(t) : apply(dateISO, d, []); // dates.js
}

function bigText(b) { return apply(bigToString, b, []); }

// cell is a JSON-safe, bounded version of a value (previews, top values).
function cell(v, depth, tr, seen) {
  try {
    const t = typeof v;
    if (v === null || v === undefined) return null;
    if (t === 'boolean') return v;
    if (t === 'number') return Number.isInteger(v) ? v : num(v, PREC.cell);
    if (t === 'string') return cut(v, MAX_STR, tr);
    if (t === 'bigint') return bigText(v);
    if (t === 'symbol') return apply(symToString, v, []);
    const k = tag(v);
    if (k === 'Date') return dateText(v);
    if ((k === 'Array' || k === 'Object') && !seen) seen = [];
    if (k === 'Array' || (k === 'Object' && className(v) === 'Object')) {
      if (seen.indexOf(v) >= 0) { tr.hit = true; return '<cycle>'; }
      if (depth >= MAX_DEPTH) { tr.hit = true; return k === 'Array' ? '<Array len=' + v.length + '>' : '<Object>'; }
      seen.push(v);
      try {
        if (k === 'Array') {
          const out = [];
          const n = v.length;
          for (let i = 0; i < n; i++) {
            if (i >= 10) { tr.hit = true; out.push(ELL); break; }
            const d = getDesc(v, i);
            out.push(d === undefined ? null : 'value' in d ? cell(d.value, depth + 1, tr, seen) : '<getter>');
          }
          return out;
        }
        const out = {};
        const ks = keysOf(v);
        for (let i = 0; i < ks.length; i++) {
          if (i >= 10) { tr.hit = true; out[ELL] = (ks.length - 10) + ' more'; break; }
          const d = getDesc(v, ks[i]);
          out[cut(ks[i], 64, tr)] = d && 'value' in d ? cell(d.value, depth + 1, tr, seen) : '<getter>';
        }
        return out;
      } finally { seen.pop(); }
    }
    return repr(v, tr, 1);
  } catch (e) {
    tr.hit = true;
    return '<unreadable>';
  }
}

function errText(e) {
  try {
    if (e !== null && typeof e === 'object' && tag(e) === 'Error') {
      const n = dataValue(e, 'name'), m = dataValue(e, 'message');
      return (typeof n === 'string' ? n : 'Error') + (typeof m === 'string' && m ? ': ' + cut(m, 200) : '');
    }
    return 'a thrown ' + typeName(e) + (typeof e === 'string' ? ': ' + cut(e, 200) : '');
  } catch (x) { return 'an exception'; }
}

// ---------------------------------------------------------------- paths

function pathStr(path) {
  let s = '';
  for (const [kind, v] of path) {
    if (kind === 'name') s += v;
    else if (kind === 'attr') s += '.' + v;
    else s += '[' + (typeof v === 'string' ? J.stringify(v) : S(v)) + ']';
  }
  return s;
}

function someKeys(v) {
  try {
    if (isProxy(v)) return [];
    const out = [];
    for (const k of ownKeys(v)) {
      if (typeof k === 'string') out.push(k);
      if (out.length >= 50) break;
    }
    return out;
  } catch (e) { return []; }
}

// step reads one attribute or item, as JavaScript would (getters named by
// the path run), with Python-like misses: an unknown key is
// VARIABLE_NOT_FOUND, a negative index counts from the end, a Map's item is
// its entry.
function step(obj, kind, key, where) {
  if (obj === null || obj === undefined) {
    throw new ProbeError('INVALID_EXPRESSION', where + ' is ' + obj + ': it has no ' + (kind === 'attr' ? 'property ' : 'item ') + J.stringify(key));
  }
  const k = tag(obj);
  if (kind === 'item' && k === 'Map') {
    if (obj.has(key)) return obj.get(key);
    throw new ProbeError('VARIABLE_NOT_FOUND', where + ' has no key ' + J.stringify(key), 'available_variables lists its first string keys', mapKeys(obj));
  }
  const indexed = k === 'Array' || k === 'TypedArray' || k === 'Buffer' || typeof obj === 'string';
  if (kind === 'item' && typeof key === 'number' && indexed) {
    const n = obj.length;
    const i = key < 0 ? n + key : key;
    if (i < 0 || i >= n) throw new ProbeError('VARIABLE_NOT_FOUND', where + ' has no item ' + key + ' (length ' + n + ')');
    return obj[i];
  }
  const box = O(obj);
  let present;
  try { present = key in box; } catch (e) {
    throw new ProbeError('VARIABLE_NOT_FOUND', where + ' cannot be searched for ' + J.stringify(key) + ': ' + errText(e));
  }
  if (!present) {
    throw new ProbeError('VARIABLE_NOT_FOUND', where + ' (' + typeName(obj) + ') has no ' + (kind === 'attr' ? 'property ' : 'item ') + J.stringify(key),
      'available_variables lists its own properties', someKeys(box));
  }
  try { return obj[key]; } catch (e) {
    throw new ProbeError('VARIABLE_NOT_FOUND', where + (kind === 'attr' ? '.' + key : '[' + J.stringify(key) + ']') + ' raised ' + errText(e));
  }
}

function mapKeys(m) {
  const out = [];
  const it = apply(mapEntries, m, []);
  for (let i = 0; i < 50; i++) {
    const r = apply(iterNext, it, []);
    if (r.done) break;
    out.push(typeof r.value[0] === 'string' ? r.value[0] : S(cell(r.value[0], 1, new Trunc())));
  }
  return out;
}

function resolve(thunk, path) {
  let obj;
  try { obj = thunk(); } catch (e) {
    if (e instanceof ReferenceError) {
      throw new ProbeError('VARIABLE_NOT_FOUND', S(dataValue(e, 'message') || 'name ' + path[0][1] + ' is not defined') + ' in this frame',
        'pick one of available_variables, or another frame');
    }
    throw new ProbeError('VARIABLE_NOT_FOUND', path[0][1] + ' raised ' + errText(e));
  }
  for (let i = 1; i < path.length; i++) obj = step(obj, path[i][0], path[i][1], pathStr(path.slice(0, i)));
  return obj;
}

function errorJSON(e) {
  if (e instanceof ProbeError) {
    const err = { code: e.code, message: e.message };
    if (e.hint) err.hint = e.hint;
    if (e.available && e.available.length) err.available_variables = e.available;
    return J.stringify({ error: err });
  }
  return J.stringify({ error: { code: 'INTERNAL', message: 'probe failed: ' + errText(e) } });
}

function dumps(res) {
  let out = J.stringify(res);
  if (out.length > MAX_OUT) {
    delete res.preview;
    if (res.statistics) delete res.statistics.columns;
    (res.warnings = res.warnings || []).push('result over ' + MAX_OUT + ' bytes: preview and column statistics dropped');
    out = J.stringify(res);
    if (out.length > MAX_OUT) {
      out = J.stringify({ name: res.name, type: res.type, detected_type: res.detected_type, warnings: res.warnings.concat(['structure dropped too']) });
    }
  }
  return out;
}

const P = {};

// P.run inspects the value thunk() reaches through args.path[1:].
P.run = function (thunk, argsJSON) {
  const t0 = now();
  try {
    const args = J.parse(argsJSON);
    VG.gen = args.gen;
    const path = args.path, opts = args.opts || {};
    setPrecision(opts, CELL);
    const B = new Budget(N(opts.timeout || 2));
    const obj = resolve(thunk, path);
    const res = { name: pathStr(path), warnings: [], source: 'probe' };
    try {
      inspectValue(obj, opts, B, res);
    } catch (e) {
      if (e instanceof ProbeError) throw e;
      res.warnings.push('inspection failed part way: ' + errText(e));
      res.partial = true;
    }
    if (B.timedOut.length) { res.partial = true; res.timed_out = B.timedOut; }
    if (!res.warnings.length) delete res.warnings;
    res.probe_ms = M.round((now() - t0) * 1000) / 1000;
    return dumps(res);
  } catch (e) {
    return errorJSON(e);
  }
};
