// flood.js: stdout floods between stops, for the event-loss tests: each
// round prints n lines, then stops at the breakpoint marked @STOP.
const n = Number(process.argv[2] || 20000);
const pad = 'x'.repeat(40);
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < n; i++) {
    console.log(`round ${round} line ${i} ${pad}`);
  }
  console.error(`round ${round} done`); // @STOP
}
console.log('end');
