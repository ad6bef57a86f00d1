// closes_inspector.js: a program that closes its own inspector, so the
// debugger's connection ends under it while it goes on running.
'use strict';
const inspector = require('node:inspector');

setTimeout(() => inspector.close(), 200);
setInterval(() => {}, 1000);
