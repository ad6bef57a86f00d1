// Logging helpers (a CommonJS module).

'use strict';

const fs = require('node:fs');
const { format } = require('node:util');

function logLine(...args) {
  console.log(format(...args));
}

/** Writes text to a file. */
function persist(path, text) {
  fs.writeFileSync(path, text);
}

module.exports = { logLine, persist };
