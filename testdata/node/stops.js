// stops.js: stop reports, snapshots, debug_variables and browsing on Node
// through MCP (server/mcp/node_stops_test.go) and the stop-report benchmark
// (server/mcp/bench_node_test.go). Tests find lines by their markers: the
// loop marker stops inside a for…of over 600 records (a Block scope inside
// the Local one, a name shadowed by the loop's own), the bench marker in a
// frame of ten locals with two 10,000-record arrays.
'use strict';

function makeCounter() {
  let hits = 0;
  return () => ++hits;
}

function records(n, seed) {
  const houses = ['Stark', 'Lannister', 'Tully', 'Arryn'];
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    sku: 'SKU-' + ((i * seed) % 997),
    qty: (i * 7 + seed) % 13,
    price: i % 2 ? null : ((i * 31) % 1000) / 4,
    house: houses[i % 4],
    note: i % 2 ? 'gift wrapped, signed and numbered by the author' : null,
  }));
}

function tally(items, byHouse) {
  const seen = new Map();
  const limit = 3;
  let label = 'outer';
  const counter = makeCounter();
  for (const it of items) {
    const label = 'inner ' + it.id;
    if (it.qty > limit) {
      seen.set(it.sku, it.qty + counter()); // @loop
      if (label.length > 100) break;
    }
  }
  return [seen, label];
}

function report(orders, returns) {
  const total = orders.length + returns.length;
  const title = 'weekly report — ' + 'x'.repeat(200);
  const ratio = returns.length / orders.length;
  const when = new Date(Date.UTC(2024, 4, 1));
  const flags = { draft: true, reviewed: false, owner: { name: 'Ana', team: 'ops' } };
  const tags = new Set(['a', 'b', 'c']);
  const weights = Float64Array.from({ length: 1000 }, (_, i) => i / 10);
  const pick = (r) => r.qty > 2;
  return [total, title, ratio, when, flags, tags, weights, pick]; // @bench
}

function main() {
  const items = records(600, 3);
  const byHouse = {};
  for (const r of items) (byHouse[r.house] = byHouse[r.house] || []).push(r);
  tally(items, byHouse);
  report(records(10000, 5), records(10000, 11));
}

main();
