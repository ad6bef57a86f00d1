// bench.js: for the Node benchmarks — a stop at a debugger statement
// (evaluate), then a loop that steps forever (stepping).
'use strict';

function evaluateHere() {
  const total = 41;
  const rows = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }];
  debugger; // @stop
  return total + rows.length;
}

function stepForever() {
  let total = 0;
  for (let i = 0; ; i++) {
    total += i; // @loop
    if (i % 2 === 0) {
      total -= 1;
    }
  }
}

evaluateHere();
stepForever();
