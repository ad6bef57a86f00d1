// A Node program for dapscope/page (editor/page_node_test.go): 2,000
// records with nulls; after the breakpoint a step changes prices in place.
'use strict';

function main() {
  const cities = ['Nice', 'Lyon', 'Brest', null];
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    city: cities[i % 4],
    price: i % 17 === 3 ? null : ((i * 7919) % 1000) / 10,
    qty: i % 7,
  }));
  const none = rows.slice(0, 0); // an empty table: its page is rows [] (issue #28.7)
  rows.forEach((r) => { r.price = r.price === null ? null : r.price; }); // BREAKPOINT
  rows.forEach((r, i) => { if (r.price !== null) r.price = 100 - r.price + (i % 3); });
  return rows.length;
}

main();
