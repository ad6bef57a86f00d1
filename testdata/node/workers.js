// workers.js: a program with a worker thread, debugged as a thread of its
// own: a breakpoint in the worker's code stops the worker (its thread),
// evaluation runs in its frames, and its end is reported. Tests find
// lines by "// @name".
'use strict';
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

function work(n) {
  const doubled = n * 2; // @work
  return doubled + 1;
}

globalThis.where = isMainThread ? 'main' : 'worker';

if (isMainThread) {
  const w = new Worker(__filename, { workerData: 20 });
  w.on('message', (answer) => {
    console.log('worker answered', answer); // @answer
  });
  w.on('exit', (code) => console.log('worker exited', code));
} else {
  parentPort.postMessage(work(workerData));
}
