// A Node program for the js-debug bridge test: an array of records.
'use strict';

function main() {
  const records = [
    { city: 'Nice', price: 12.5, qty: 3 },
    { city: 'Lyon', price: 8, qty: null },
    { city: 'Paris', price: 20.25, qty: 1 },
  ];
  const total = records.length; // BREAKPOINT
  return total;
}

main();
