// Fixture of inspect's hostile-value tests (run by inspect/testdata/harness.js):
// tables whose rows hide getters and proxies past the rows the probe samples,
// and a counter (hostile.hits) that any getter, trap or replaced intrinsic of
// the program bumps. An inspection must leave it at 0.
'use strict';

exports.build = function () {
  const hostile = { hits: 0 };
  const hit = () => { hostile.hits++; return 999; };
  const N = 5000;
  const make = (i) => ({ id: i, qty: i % 17, note: 'n' + (i % 7) });

  // an own getter on one record that the sample skips
  const ownGetter = [];
  for (let i = 0; i < N; i++) ownGetter.push(make(i));
  Object.defineProperty(ownGetter[1237], 'qty', { get: hit, enumerable: true });

  // a row lacking a key its class's prototype has a getter for
  class Rec { get qty() { return hit(); } }
  const protoGetter = [];
  for (let i = 0; i < N; i++) {
    const r = Object.create(Rec.prototype);
    r.id = i;
    if (i !== 2351) Object.defineProperty(r, 'qty', { value: i % 17, enumerable: true, writable: true });
    r.note = 'n' + (i % 7);
    protoGetter.push(r);
  }

  // one row is a Proxy whose every trap counts
  const traps = {};
  for (const t of ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty', 'set', 'deleteProperty', 'isExtensible', 'preventExtensions', 'setPrototypeOf', 'apply', 'construct']) {
    traps[t] = function (...args) { hit(); return Reflect[t](...args); };
  }
  const proxied = [];
  for (let i = 0; i < N; i++) proxied.push(i === 3001 ? new Proxy(make(i), traps) : make(i));

  // an element of the array is an accessor
  const elementGetter = [];
  for (let i = 0; i < N; i++) elementGetter.push(make(i));
  Object.defineProperty(elementGetter, 4003, { get() { hit(); return make(4003); }, enumerable: true });

  // an object whose method has one of the names a filter may call, and
  // writes: the filter grammar lets it through, V8's side-effect check
  // must stop it
  const sneaky = { includes() { hostile.hits++; return true; } };
  const small = [];
  for (let i = 0; i < 40; i++) small.push(make(i));

  // makeLate() builds late: 1,000,000 records whose last one has a
  // getter (checking every row takes longer than a summary's budget)
  const makeLate = () => {
    const late = [];
    for (let i = 0; i < 1000000; i++) late.push({ id: i, qty: i % 17, note: 'n' + (i % 7) });
    Object.defineProperty(late[999999], 'qty', { get: hit, enumerable: true });
    globalThis.late = late;
    return 'ok';
  };

  return { hostile, ownGetter, protoGetter, proxied, elementGetter, sneaky, small, replaceIntrinsics, makeLate };
};

// replaceIntrinsics replaces every method and getter of the built-in
// prototypes and namespaces with one that, called from code compiled by
// eval (the probe: the harness evaluates it), counts in hostile.intrinsics
// and answers wrongly (sort does nothing, JSON.stringify answers {}),
// and otherwise does what the built-in does (the harness goes on working);
// toJSON is added to Object.prototype, Array.prototype and
// BigInt.prototype. Answers how many it replaced.
function replaceIntrinsics() {
  const g = globalThis.hostile;
  const apply = Reflect.apply, getDesc = Object.getOwnPropertyDescriptor, define = Object.defineProperty;
  const ownKeys = Reflect.ownKeys, getProto = Object.getPrototypeOf, E = Error, includes = String.prototype.includes;
  const push = Array.prototype.push;
  g.intrinsics = 0; g.names = [];
  let busy = false;
  const fromProbe = () => {
    if (busy) return false;
    busy = true;
    try { return apply(includes, new E().stack, ['eval at']); } finally { busy = false; }
  };
  const wrap = (orig, label) => function () {
    if (fromProbe()) {
      g.intrinsics++;
      busy = true;
      if (g.names.length < 50) apply(push, g.names, [label]);
      busy = false;
      if (label === 'Array.prototype.sort') return this;
      if (label === 'JSON.stringify') return '{}';
    }
    return apply(orig, this, arguments);
  };
  const arrayIter = getProto([][Symbol.iterator]());
  const holders = {
    'Object.prototype': Object.prototype, 'Array.prototype': Array.prototype, 'String.prototype': String.prototype,
    'Number.prototype': Number.prototype, 'Boolean.prototype': Boolean.prototype, 'Symbol.prototype': Symbol.prototype,
    'BigInt.prototype': BigInt.prototype, 'Map.prototype': Map.prototype, 'Set.prototype': Set.prototype,
    'WeakMap.prototype': WeakMap.prototype, 'WeakSet.prototype': WeakSet.prototype, 'RegExp.prototype': RegExp.prototype,
    'Date.prototype': Date.prototype, 'Function.prototype': Function.prototype, 'Error.prototype': Error.prototype,
    'TypedArray.prototype': getProto(Int8Array.prototype), 'ArrayIterator': arrayIter, 'Iterator.prototype': getProto(arrayIter),
    'MapIterator': getProto(new Map().entries()), 'SetIterator': getProto(new Set().values()),
    Object, Array, String, Number, Math, JSON, Reflect, Map, Set, Symbol, Date, RegExp, BigInt, Promise,
  };
  let n = 0;
  for (const [name, h] of Object.entries(holders)) {
    for (const k of ownKeys(h)) {
      if (k === 'constructor' || k === '__proto__' || k === 'caller' || k === 'arguments') continue;
      const d = getDesc(h, k);
      if (!d.configurable) continue;
      const label = name + '.' + String(k);
      if (typeof d.value === 'function') { define(h, k, { ...d, value: wrap(d.value, label) }); n++; }
      else if (typeof d.get === 'function') { define(h, k, { ...d, get: wrap(d.get, label) }); n++; }
    }
  }
  for (const [name, h] of [['Object.prototype', Object.prototype], ['Array.prototype', Array.prototype], ['BigInt.prototype', BigInt.prototype]]) {
    define(h, 'toJSON', { value: wrap(function () { return this; }, name + '.toJSON'), configurable: true, writable: true });
    n++;
  }
  busy = true; // this function's own calls (it runs in an eval too) are not counted
  g.intrinsics = 0; g.names = [];
  busy = false;
  return n;
}
