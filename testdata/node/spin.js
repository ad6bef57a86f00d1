// spin.js: runs until told to stop, for pause and evaluation while running.
globalThis.ticks = 0;
const timer = setInterval(() => {
  globalThis.ticks++; // @tick
  if (globalThis.stop) {
    clearInterval(timer);
  }
}, 5);
