// spin.js: runs until told to stop, for pause and evaluation bounds.
let ticks = 0;
const timer = setInterval(() => {
  ticks++; // @tick
  if (globalThis.stop) {
    clearInterval(timer);
  }
}, 5);
