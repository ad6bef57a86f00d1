// smart_values.js: the locals of one frame for the smart-values test of
// Node sessions through the proxy (server/session/smartvalues_node_test.go):
// an array of records, typed arrays, an apache-arrow Table, an arquero
// table and a nodejs-polars DataFrame and Series (summarised in the editor's
// views), and plain values (a plain Proxy among them) that must pass
// untouched. Deterministic. The test stops at the "// BREAK" line.
'use strict';

const arrow = require('apache-arrow');
const aq = require('arquero');
const pl = require('nodejs-polars');

function main() {
  const cities = ['Nice', 'Oslo', 'Lima', 'Pune'];
  const rows = Array.from({ length: 500 }, (_, i) => ({
    id: i, city: i % 25 === 3 ? null : cities[i % 4], price: i % 4 === 1 ? undefined : 3 + (i % 16) / 2, qty: i % 7,
  }));
  const temps = Float64Array.from({ length: 1000 }, (_, i) => (i % 50 === 7 ? NaN : 8 + ((i * 13) % 240) / 10));
  const counts = Int32Array.from([5, 3, 9, 1]);
  const table = arrow.tableFromArrays({ id: Int32Array.from({ length: 40 }, (_, i) => i), city: rows.slice(0, 40).map((r) => r.city) });
  const frame = aq.table({ id: [1, 2, 3], city: ['Nice', null, 'Lima'] });
  const plFrame = pl.DataFrame({ id: [1, 2, 3, 4], city: ['Nice', null, 'Lima', null] });
  const plSeries = pl.Series('temp', [1.5, null, 3, 2]);
  const wrapped = new Proxy({ a: 1 }, {});
  const words = ['alpha', 'beta', 'gamma'];
  const n = 42;
  const label = 'plain';
  debugger; // BREAK
  return [rows, temps, counts, table, frame, plFrame, plSeries, wrapped, words, n, label];
}

main();
