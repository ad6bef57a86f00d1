// app.ts: the source of app.js (not run by the tests).
function add(a: number, b: number): number {
  return a + b;
}
console.log(add(2, 3));
