// A Node program for MCP agents on a bridged (js-debug) session, and for
// the CDP shortcut's test: an array of records, output before the stop, a
// step that changes total.
'use strict';

function main() {
  const records = [
    { city: 'Nice', price: 12.5, qty: 3 },
    { city: 'Lyon', price: 8, qty: null },
    { city: 'Paris', price: 20.25, qty: 1 },
  ];
  console.log('rows', records.length);
  let total = 0; // BREAKPOINT
  total = records.reduce((s, r) => s + r.price, 0);
  console.log('total', total);
  return total;
}

main();
