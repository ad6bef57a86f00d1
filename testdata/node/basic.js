// basic.js: a CommonJS program for the Node adapter's tests. Tests find
// lines by their "// @name" markers, never by number.
'use strict';

function square(x) {
  const y = x * x; // @square
  return y;
}

class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
  get norm() {
    throw new Error('getters are never invoked by the adapter');
  }
}

function main() {
  const greeting = 'héllo 🌍';
  const big = 12345678901234567890n;
  const rows = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }];
  const many = Array.from({ length: 2500 }, (_, i) => i * 2);
  const byName = new Map([['one', 1], ['two', { n: 2 }]]);
  const tags = new Set(['x', 'y', 'z']);
  const pt = new Point(3, 4);
  const nothing = null;
  let total = 0;
  console.log('start', rows.length);
  for (let i = 0; i < 4; i++) {
    total += square(i); // @loop
  }
  console.error('total on stderr', total);
  debugger; // @debugger
  return { greeting, big, many, byName, tags, pt, nothing, total };
}

main(); // @call
process.stdout.write('done\n');
process.exitCode = 3;
