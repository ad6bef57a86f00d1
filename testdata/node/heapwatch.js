// heapwatch.js: the heap watch of the JavaScript probe (issue #37;
// inspect/heapwatch_node_test.go runs it under --max-old-space-size=120):
// `words`, 2,000,000 distinct strings, whose sorted page needs a map of
// every distinct value (more than the program's small heap has left), and
// small values that any inspection may read. The test stops at "// BREAK".
'use strict';

function main() {
  const n = 2000000;
  const words = Array.from({ length: n }, (_, i) => 'w' + ((i * 7919) % n).toString(36) + 'x');
  const some = words.slice(0, 50000);
  const small = [3, 1, 2];
  debugger; // BREAK
  return [words, some, small];
}

main();
