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

  return { hostile, ownGetter, protoGetter, proxied, elementGetter, sneaky, small };
};
