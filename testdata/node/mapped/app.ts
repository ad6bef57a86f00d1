// app.ts: the source the mismatched map of app.js names (never shown).
function add(a: number, b: number): number {
  return a + b;
}
console.log(add(2, 3));
