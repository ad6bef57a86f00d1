// workers.js: a program with a worker thread. The Node adapter does not
// debug workers, but must let them run (a worker inherits --inspect-brk and
// would otherwise wait for a debugger forever). Tests find lines by "// @name".
'use strict';
const { Worker, isMainThread, parentPort } = require('node:worker_threads');

if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (answer) => {
    console.log('worker answered', answer); // @answer
  });
  w.on('exit', (code) => console.log('worker exited', code));
} else {
  parentPort.postMessage(6 * 7);
}
