// ts_strip_helper.js: dapscope's TypeScript type stripper, run by the code
// index as `node -e`. Reads one JSON line {p, src} per file on stdin and
// answers one line {p, code} (types replaced by whitespace: every position
// is kept) or {p, err}. Needs module.stripTypeScriptTypes (Node >= 22.13 or
// 23.2); without it, exits with status 3 and says so on stderr.
'use strict';
const strip = require('node:module').stripTypeScriptTypes;
if (typeof strip !== 'function') {
  process.stderr.write('node ' + process.version + ' has no module.stripTypeScriptTypes (Node >= 22.13 or 23.2 needed)\n');
  process.exit(3);
}
const rl = require('node:readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let p = '';
  let out;
  try {
    const req = JSON.parse(line);
    p = req.p;
    out = { p, code: strip(req.src, { mode: 'strip' }) };
  } catch (e) {
    const msg = String((e && e.message) || e).split('\n')[0];
    out = { p, err: (e && e.code ? e.code + ': ' : '') + msg };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
