// throws.js: a caught exception, then an uncaught one.
function risky(v) {
  if (v > 1) {
    throw new TypeError('too big: ' + v); // @throw
  }
  return v;
}
try {
  risky(5);
} catch (e) {
  console.log('caught', e.message);
}
risky(7); // @uncaught
