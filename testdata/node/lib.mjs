// lib.mjs: imported by esm.mjs.
export function double(v) {
  const r = v * 2; // @double
  return r;
}
