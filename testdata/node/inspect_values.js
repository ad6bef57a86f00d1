// inspect_values.js: one value of every kind the JavaScript probe knows, for
// the inspector's golden tests (inspect/node_test.go). Deterministic: no
// randomness, no clock. The tests stop at the "// BREAK" line.
'use strict';

class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
  get norm() {
    throw new Error('getters are never invoked by the probe');
  }
}

class Point3 extends Point {
  constructor(x, y, z) {
    super(x, y);
    this.z = z;
  }
  get volume() {
    return this.x * this.y * this.z;
  }
}

class Hostile {
  constructor() {
    this.label = 'hostile';
  }
  toString() {
    throw new Error('toString must not be called');
  }
  toJSON() {
    for (;;) {} // never returns
  }
  valueOf() {
    throw new Error('valueOf must not be called');
  }
}

function add(a, b = 2, ...rest) {
  return a + b + rest.length;
}

// lcg: a small deterministic generator (the same numbers on every run).
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function build() {
  const rnd = lcg(42);
  const cities = ['Nice', 'Lyon', 'Paris', 'Lille'];
  const rows = Array.from({ length: 1000 }, (_, i) => ({
    id: i,
    city: cities[i % 4],
    price: i % 97 === 0 ? null : Math.round(rnd() * 10000) / 100,
    qty: (i * 7) % 13,
    ok: i % 3 === 0,
    when: new Date(Date.UTC(2024, 0, 1) + i * 3600e3),
    note: i % 10 === 0 ? undefined : 'n' + (i % 5),
  }));
  const ragged = [{ a: 1, b: 'x' }, { a: 2 }, { a: 3, c: true }, null, { a: 4, b: 'y', c: false }];
  const tiny = [{ a: 1 }];
  const numbers = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, NaN, Infinity];
  const holes = [1, , 3, , , 6]; // eslint-disable-line no-sparse-arrays
  const mixed = [1, 'two', { three: 3 }, [4], null, undefined, true, 5n];
  const words = ['apple', 'pear', 'apple', 'fig', 'apple', 'pear'];
  const nested = [[1, [2, [3, [4, [5]]]]]];
  const selfref = [1, 2];
  selfref.push(selfref);
  const selfobj = { name: 'loop' };
  selfobj.me = selfobj;
  const f64 = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i / 10));
  f64[3] = NaN;
  f64[7] = Infinity;
  const i32 = Int32Array.from({ length: 12 }, (_, i) => i * i - 20);
  const u8 = new Uint8Array([0, 1, 2, 255]);
  const bigs = BigInt64Array.from([1n, -5n, 9007199254740993n]);
  const buf = Buffer.from('hello\u0000world\n', 'utf8');
  const ab = new ArrayBuffer(16);
  new Uint8Array(ab).set([1, 2, 3]);
  const byName = new Map([['one', 1], ['two', { n: 2 }], ['three', [3]]]);
  const byNum = new Map([[1, 'a'], [2, 'b']]);
  const tags = new Set(['x', 'y', 'z', 1]);
  const pt = new Point(3, 4);
  const pt3 = new Point3(1, 2, 3);
  const plain = { name: 'plain', items: [1, 2, 3], cache: { train: [1, 2], test: [3] }, get lazy() { throw new Error('no'); } };
  const bare = Object.create(null);
  bare.k = 'v';
  const hostile = new Hostile();
  const when = new Date(Date.UTC(2024, 1, 29, 12, 30, 0));
  const badDate = new Date('not a date');
  const pattern = /ab+c/gi;
  const err = new TypeError('bad input', { cause: new Error('root cause') });
  const resolved = Promise.resolve({ ok: 1 });
  const pending = new Promise(() => {});
  const fn = add;
  const arrow = (x) => x * 2;
  const asyncFn = async function fetchIt(url) { return url; };
  const klass = Point3;
  const proxy = new Proxy({ secret: 1 }, { get() { throw new Error('trap ran'); }, ownKeys() { throw new Error('trap ran'); } });
  const weakMap = new WeakMap([[pt, 1]]);
  const weakSet = new WeakSet([pt]);
  const text = 'hello world\n'.repeat(100);
  const emoji = 'a'.repeat(199) + '😀' + 'tail'.repeat(20);
  const shortText = 'héllo 🌍';
  const n = 42;
  const ratio = 0.1 + 0.2;
  const notANumber = NaN;
  const big = 12345678901234567890123n;
  const flag = true;
  const nothing = null;
  const missing = undefined;
  const sym = Symbol('token');
  const looper = { get forever() { for (;;) {} } }; // a getter that never returns
  const thrower = { get boom() { throw new RangeError('getter failed'); } };
  // Big values live in one object, so that the frame's own variables stay
  // cheap to list (an adapter sends a string variable's value whole).
  const huge = {
    text: 'x'.repeat(50 * 1024 * 1024),
    rows: Array.from({ length: 1000000 }, (_, i) => ({ id: i, v: i % 1000, s: i % 2 ? 'odd' : 'even' })),
  };
  // The benchmark's table: 10,000 rows of 10 fields.
  const bench = Array.from({ length: 10000 }, (_, i) => ({
    id: i, x: rnd(), y: rnd() * 100, k: i % 50, name: 'item' + (i % 500), flag: i % 3 === 0,
    score: i % 11 === 0 ? null : Math.round(rnd() * 1000), cat: cities[i % 4], w: i * 0.5, z: -i,
  }));
  debugger; // BREAK
  return [rows, ragged, tiny, numbers, holes, mixed, words, nested, selfref, selfobj, f64, i32, u8, bigs, buf, ab,
    byName, byNum, tags, pt, pt3, plain, bare, hostile, when, badDate, pattern, err, resolved, pending, fn, arrow,
    asyncFn, klass, proxy, weakMap, weakSet, text, emoji, shortText, n, ratio, notANumber, big, flag, nothing,
    missing, sym, looper, thrower, huge, bench];
}

build();
