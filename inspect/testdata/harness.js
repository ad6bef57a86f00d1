// A stand-in for a Node debug adapter's evaluate, for Go tests that run the
// JavaScript probe outside a debugger (the JavaScript twin of harness.py):
// loads a fixture module (argv[2]), puts what its build() returns on
// globalThis, then evaluates one expression per stdin line in the global
// scope, as the probe's thunks read names, and answers one JSON line:
// {"result": string} or {"error": string}. A line that is an object
// {"expression", "throwOnSideEffect": true} is evaluated through this
// process's own inspector session (Runtime.evaluate) with V8's side-effect
// check, as a debug adapter does for a browse filter.
'use strict';
const readline = require('readline');
const path = require('path');
const inspector = require('inspector');

const values = require(path.resolve(process.argv[2])).build();
Object.assign(globalThis, values);
let session = null;

// checked evaluates expr under the side-effect check (the inspector
// answers a same-thread session synchronously).
function checked(expr) {
  if (!session) {
    session = new inspector.Session();
    session.connect();
  }
  let out;
  session.post('Runtime.evaluate', { expression: expr, throwOnSideEffect: true, returnByValue: true }, (err, res) => {
    if (err) out = { error: String(err.message || err) };
    else if (res.exceptionDetails) {
      const ex = res.exceptionDetails.exception;
      out = { error: (ex && ex.description) || res.exceptionDetails.text };
    } else {
      const v = res.result.value;
      out = { result: typeof v === 'string' ? v : String(v) };
    }
  });
  return out || { error: 'the inspector did not answer' };
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  let out;
  try {
    const req = JSON.parse(line);
    if (typeof req === 'object' && req !== null) out = checked(req.expression);
    else {
      const v = (0, eval)(req);
      out = { result: typeof v === 'string' ? v : String(v) };
    }
  } catch (e) {
    out = { error: String(e && e.stack || e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
