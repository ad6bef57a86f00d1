// The Node program of the JavaScript e2e scenario (scenario-node.mjs): an
// array of records debugged with a plain `"type": "node"` launch
// configuration (VS Code's own js-debug), inspected by dapscope through the
// bridge. Stepping over the marked line adds the `total` field to every record.
'use strict';

const CITIES = ['Nice', 'Lyon', 'Paris', 'Lille'];

function makeRecords(n) {
  const records = [];
  for (let i = 0; i < n; i++) {
    records.push({ id: i, city: CITIES[i % CITIES.length], price: Math.round((5 + ((i * 37) % 50) / 3) * 100) / 100, qty: i % 7 === 0 ? null : i % 5 });
  }
  return records;
}

function addTotals(records) {
  for (const r of records) r.total = Math.round(r.price * (r.qty ?? 0) * 100) / 100;
}

function main() {
  const records = makeRecords(40);
  addTotals(records); // BREAKPOINT
  const sum = records.reduce((s, r) => s + r.total, 0);
  console.log(`sum ${sum.toFixed(2)}`);
  return sum;
}

main();
