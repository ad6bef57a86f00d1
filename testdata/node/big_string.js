// big_string.js: a local string larger than the adapter reads whole (40 MB,
// over its 32 MB limit per inspector message). Tests find lines by
// "// @name".
'use strict';

function main() {
  const big = 'x'.repeat(40 << 20);
  const small = 'ok';
  debugger; // @stop
  return big.length + small.length;
}

console.log('length', main());
