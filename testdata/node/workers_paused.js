// workers_paused.js: the main thread and a worker thread paused at once.
// The worker tells the main thread it is about to stop, then stops at
// @worker; the main thread stops at @main on that message while the
// worker is still paused. Tests find lines by "// @name".
'use strict';
const { Worker, isMainThread, parentPort } = require('node:worker_threads');

if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => {
    console.log('main got', m); // @main
  });
} else {
  parentPort.postMessage('stopping');
  console.log('worker goes on'); // @worker
}
