// A stand-in for a Node debug adapter's evaluate, for Go tests that run the
// JavaScript probe outside a debugger (the JavaScript twin of harness.py):
// loads a fixture module (argv[2]), puts what its build() returns on
// globalThis, then evaluates one expression per stdin line in the global
// scope, as the probe's thunks read names, and answers one JSON line:
// {"result": string} or {"error": string}.
'use strict';
const readline = require('readline');
const path = require('path');

const values = require(path.resolve(process.argv[2])).build();
Object.assign(globalThis, values);
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  let out;
  try {
    const v = (0, eval)(JSON.parse(line));
    out = { result: typeof v === 'string' ? v : String(v) };
  } catch (e) {
    out = { error: String(e && e.stack || e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
