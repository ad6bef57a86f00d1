// dapscope JavaScript probe: guard — the built-ins the probe calls are the
// ones it was installed with. The probe calls methods the ordinary way
// (rows.sort(cmp), s.slice(0, 9), J.stringify(res)): each call looks the
// method up on its prototype or namespace at run time, so a program that
// replaced one (Array.prototype.sort = mySort) after the probe was
// installed would have its function run by an inspection. At install this
// section records the own properties of the built-in prototypes and
// namespaces that the probe's sources name (USED_KEYS, from the sidecar),
// all their symbol-keyed ones (iterators, species, toPrimitive), every
// RegExp.prototype property (replace and split read them) and toJSON
// (JSON.stringify calls it). Each entry point (run, summarize, select)
// first compares them with what is there now (descriptors only: no getter
// runs), puts back the recorded ones the program changed or added, and
// restores the program's own in a finally, before anything else of the
// program can run; no code of the program runs in between. A change that
// cannot be undone (a non-configurable property) answers an error instead
// of inspecting. What it cannot do: a built-in replaced before the probe
// was first installed is the one recorded; a call that V8 terminates (the
// adapter's evaluation timeout) runs no finally, so the program's
// replacements stay put back until the next probe call restores them.

const defineProp = O.defineProperty, deleteProp = R.deleteProperty, getOwnSymbols = O.getOwnPropertySymbols;

const GUARD = (() => {
  const arrayIter = getProto([][Symbol.iterator]());
  const holders = [
    [ObjectProto, 'Object.prototype'], [A.prototype, 'Array.prototype'], [S.prototype, 'String.prototype'],
    [N.prototype, 'Number.prototype'], [Boolean.prototype, 'Boolean.prototype'], [Symbol.prototype, 'Symbol.prototype'],
    [BigInt.prototype, 'BigInt.prototype'], [Map.prototype, 'Map.prototype'], [Set.prototype, 'Set.prototype'],
    [WeakMap.prototype, 'WeakMap.prototype'], [WeakSet.prototype, 'WeakSet.prototype'], [RegExp.prototype, 'RegExp.prototype'],
    [Date.prototype, 'Date.prototype'], [FunctionProto, 'Function.prototype'], [Error.prototype, 'Error.prototype'],
    [TypedArray.prototype, 'TypedArray.prototype'], [ArrayBuffer.prototype, 'ArrayBuffer.prototype'],
    [Promise.prototype, 'Promise.prototype'], [arrayIter, 'ArrayIterator'], [getProto(arrayIter), 'Iterator.prototype'],
    [getProto(new Map().entries()), 'MapIterator'], [getProto(new Set().values()), 'SetIterator'],
    [getProto(''[Symbol.iterator]()), 'StringIterator'],
    [O, 'Object'], [A, 'Array'], [S, 'String'], [N, 'Number'], [M, 'Math'], [J, 'JSON'], [R, 'Reflect'], [Map, 'Map'],
    [Set, 'Set'], [Symbol, 'Symbol'], [Date, 'Date'], [RegExp, 'RegExp'], [BigInt, 'BigInt'], [Promise, 'Promise'],
  ];
  const used = new Set(USED_KEYS);
  const all = (h) => h === RegExp.prototype;
  const out = [];
  for (let i = 0; i < holders.length; i++) {
    const h = holders[i][0];
    const names = ownKeys(h);
    for (let j = 0; j < names.length; j++) {
      const k = names[j];
      if (typeof k === 'symbol' || used.has(k) || all(h) || k === 'constructor' || k === 'toJSON') {
        out[out.length] = { h, k, d: getDesc(h, k), label: holders[i][1] + '.' + (typeof k === 'symbol' ? S(k) : k) };
      }
    }
    // added later, a toJSON would run inside JSON.stringify
    if (getDesc(h, 'toJSON') === undefined) out[out.length] = { h, k: 'toJSON', d: undefined, label: holders[i][1] + '.toJSON' };
  }
  return out;
})();

function sameDesc(a, b) {
  if (a === undefined || b === undefined) return a === b;
  // the same function or value: a frozen prototype is not a replaced one
  return a.value === b.value && a.get === b.get && a.set === b.set;
}

// guardIntrinsics puts back what the program changed, recording in st.undo
// what to restore; a change it cannot undo throws (st.undo still holds
// what it did, so the error is written with the probe's own built-ins).
function guardIntrinsics(st) {
  let stuck = null;
  for (let i = 0; i < GUARD.length; i++) {
    const g = GUARD[i], now = getDesc(g.h, g.k);
    if (sameDesc(now, g.d)) continue;
    if (now !== undefined && !now.configurable) {
      if (stuck === null) stuck = g.label;
      continue; // the others are put back first: the error is written with them
    }
    if (st.undo === null) st.undo = [];
    st.undo[st.undo.length] = { g, now };
    if (g.d === undefined) deleteProp(g.h, g.k); else defineProp(g.h, g.k, g.d);
  }
  if (stuck !== null) {
    throw new ProbeError('NOT_SUPPORTED', 'the program replaced ' + stuck + ' with a property that cannot be put back (not configurable): the probe would run its code, so it does not inspect');
  }
}

function restoreIntrinsics(undo) {
  if (undo === null) return;
  for (let i = undo.length - 1; i >= 0; i--) {
    const u = undo[i];
    if (u.now === undefined) deleteProp(u.g.h, u.g.k); else defineProp(u.g.h, u.g.k, u.now);
  }
}

// the entry points, guarded. LIVE is the call in progress: a call that V8
// terminated (the adapter's evaluation timeout) never ran its finally, and
// the next call puts the program's built-ins back first.
const LIVE = { st: null };
for (const name of ['run', 'summarize', 'select']) {
  const f = P[name];
  P[name] = function (a, b) {
    if (LIVE.st !== null) {
      restoreIntrinsics(LIVE.st.undo);
      LIVE.st = null;
    }
    const st = { undo: null };
    LIVE.st = st;
    try {
      guardIntrinsics(st);
      heapStart();
      return f(a, b);
    } catch (e) {
      return errorJSON(e);
    } finally {
      restoreIntrinsics(st.undo);
      LIVE.st = null;
      HEAP.cap = -1;
    }
  };
}
