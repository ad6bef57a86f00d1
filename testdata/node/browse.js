// browse.js: tables to browse by rows (inspect/browse_node_test.go, the
// MCP and CLI tests): `big`, 1,000,000 records with a column of each kind
// (numbers with NaN, null, ±Infinity, -0 and many ties; strings with
// accents, an emoji, the empty string and nulls; dates with Invalid Dates;
// booleans; a key missing from most rows; mixed types with bigints and
// objects), a small table, typed arrays, a plain array, Maps and Sets, rows
// with a getter, and a counter that a filter must not be able to change.
// Deterministic (an LCG). The tests stop at the "// BREAK" line.
'use strict';

function lcg(seed) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
}

const WORDS = ['Nice', 'Paris', 'Lyon', 'Brest', 'Île-de-Ré', 'nice', '', 'Zürich', '😀 smile', '\uFF21 wide', 'Lille'];

function num(u, v) {
  if (u < 0.01) return NaN;
  if (u < 0.02) return null;
  if (u < 0.022) return Infinity;
  if (u < 0.024) return -Infinity;
  if (u < 0.03) return -0;
  return Math.round(v * 4000 - 2000) / 4; // many ties
}

function mixed(i, u) {
  switch (i % 9) {
    case 0: return Math.round(u * 100);
    case 1: return WORDS[i % WORDS.length];
    case 2: return u < 0.5;
    case 3: return new Date(Date.UTC(2020, 0, 1) + Math.round(u * 1e10));
    case 4: return BigInt(Math.round(u * 100) - 50);
    case 5: return { at: i };
    case 6: return null;
    case 7: return undefined;
    default: return u * 100;
  }
}

function records(n) {
  const rnd = lcg(7);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rnd(), b = rnd(), c = rnd(), d = rnd();
    const r = {
      id: i,
      num: num(a, b),
      str: c < 0.03 ? null : WORDS[Math.floor(c * 97) % WORDS.length] + (c < 0.5 ? '' : String(Math.floor(d * 50))),
      when: d < 0.02 ? null : d < 0.03 ? new Date(NaN) : new Date(Date.UTC(2021, 0, 1) + Math.floor(b * 400) * 86400000),
      flag: a < 0.05 ? null : c < 0.5,
      qty: Math.floor(d * 50),
      mixed: mixed(i, d),
    };
    if (b < 0.3) r.note = 'n' + Math.floor(a * 20);
    out[i] = r;
  }
  return out;
}

function main() {
  const big = records(1000000);
  const small = records(40);
  const minQty = 45;
  const f64 = Float64Array.from({ length: 1000 }, (_, i) => (i % 37 === 5 ? NaN : ((i * 7919) % 1009) / 8));
  const ints = Int32Array.from({ length: 500 }, (_, i) => ((i * 31) % 101) - 50);
  const bigs = BigInt64Array.from({ length: 50 }, (_, i) => BigInt((i * 13) % 17) * 10n ** 15n);
  const nums = Array.from({ length: 300 }, (_, i) => (i % 23 === 0 ? null : (i * 17) % 41));
  const byId = new Map(small.map((r) => [r.id * 3, r]));
  const counts = new Map(WORDS.map((w, i) => [w, (i * 7) % 5]));
  const tags = new Set(WORDS);
  const withGetter = small.map((r) => ({ id: r.id, get secret() { return r.qty; } }));
  const state = { calls: 0 };
  const bump = () => ++state.calls;
  const pure = (x) => x * 2;
  debugger; // BREAK
  return [big, small, minQty, f64, ints, bigs, nums, byId, counts, tags, withGetter, bump, pure];
}

main();
