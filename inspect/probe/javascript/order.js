// dapscope JavaScript probe: order — the sort of a browsed table
// (select.js). Each sort key becomes an unsigned key per row (numbers and
// dates by their float64 bits, small integers by their offset, other kinds
// by the rank of their distinct values), then one stable LSD radix sort of
// the rows' permutation per key, the last key first. The order, the same
// for every kind of column in both directions: nulls (null, undefined, a
// missing key, NaN, an Invalid Date) last; the others by kind — numbers
// and bigints by value, then strings (by UTF-16 code units, as JavaScript's
// < compares them), booleans (false first), dates (by time), other values
// (objects, symbols: all equal) — and descending reverses that order (nulls
// stay last); equal keys keep their positions (stable, as
// Array.prototype.sort).

const K_NUM = 0, K_STR = 1, K_BOOL = 2, K_DATE = 3, K_OTHER = 4, K_NULL = 5;
const NULL_KEY = 0xffffffff;
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// sortKind is the kind of v in the order above.
function sortKind(v) {
  const t = typeof v;
  if (t === 'number') return v === v ? K_NUM : K_NULL;
  if (t === 'string') return K_STR;
  if (v === null || t === 'undefined') return K_NULL;
  if (t === 'boolean') return K_BOOL;
  if (t === 'bigint') return K_NUM;
  if (t === 'object' && tag(v) === 'Date') {
    const ms = apply(dateGetTime, v, []);
    return ms === ms ? K_DATE : K_NULL;
  }
  return K_OTHER;
}

// floatKey: keys of numbers (or dates' times) f[0..m-1], nulls where
// isNull[r]: small integers as one 32-bit key, others as 64-bit keys
// ordered like the floats (the sign bit flipped, negatives inverted).
function floatKey(f, isNull, m, desc) {
  let mn = Infinity, mx = -Infinity, ints = true;
  for (let r = 0; r < m; r++) {
    if (isNull[r]) continue;
    const x = f[r];
    if (x < mn) mn = x;
    if (x > mx) mx = x;
    if (ints && x !== M.floor(x)) ints = false;
  }
  const lo = new Uint32Array(m);
  if (ints && mx - mn < NULL_KEY) {
    for (let r = 0; r < m; r++) lo[r] = isNull[r] ? NULL_KEY : desc ? mx - f[r] : f[r] - mn;
    return { lo, hi: null };
  }
  const hi = new Uint32Array(m), u = new Uint32Array(f.buffer, 0, 2 * m);
  const H = LITTLE ? 1 : 0, L = 1 - H;
  for (let r = 0; r < m; r++) {
    if (isNull[r]) { hi[r] = NULL_KEY; lo[r] = NULL_KEY; continue; }
    let h = u[2 * r + H], l = u[2 * r + L];
    if (h & 0x80000000) { h = ~h; l = ~l; } else h = h | 0x80000000;
    if (desc) { h = ~h; l = ~l; }
    hi[r] = h >>> 0; lo[r] = l >>> 0;
  }
  return { lo, hi };
}

const cmpPrim = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// rankDistinct ranks the distinct values of one kind (the keys of mp, each
// mapped to its id): strings by code units, numbers (and dates' times) by
// value through the typed array's own sort; numbers mixed with bigints by
// comparison, equal ones (5 and 5n) sharing a rank.
function rankDistinct(mp, k, bigs) {
  const rank = new Uint32Array(mp.size);
  if (k === K_STR || !bigs) {
    const sorted = k === K_STR ? A.from(mp.keys()).sort() : Float64Array.from(mp.keys()).sort();
    for (let i = 0; i < sorted.length; i++) rank[mp.get(sorted[i])] = i;
    return rank;
  }
  const vals = A.from(mp.keys()).sort(cmpPrim);
  for (let i = 0, r = 0; i < vals.length; i++) {
    if (i && cmpPrim(vals[i - 1], vals[i]) !== 0) r = i;
    rank[mp.get(vals[i])] = r;
  }
  return rank;
}

// sortKey is the unsigned key of vals[0..m-1] for one sort column.
function sortKey(vals, m, desc) {
  const kinds = new Uint8Array(m);
  const f = new Float64Array(m);
  const counts = [0, 0, 0, 0, 0, 0];
  let bigs = false;
  for (let r = 0; r < m; r++) {
    const v = vals[r];
    if (typeof v === 'number') { // the common case first, inline
      if (v === v) { f[r] = v + 0; counts[K_NUM]++; } else { kinds[r] = K_NULL; counts[K_NULL]++; } // -0 sorts as 0
      continue;
    }
    const k = sortKind(v);
    kinds[r] = k; counts[k]++;
    if (k === K_NUM) bigs = true;
    else if (k === K_DATE) f[r] = apply(dateGetTime, v, []);
  }
  const nonNull = m - counts[K_NULL];
  if (!bigs && (counts[K_NUM] === nonNull || counts[K_DATE] === nonNull)) {
    const isNull = new Uint8Array(m);
    for (let r = 0; r < m; r++) isNull[r] = kinds[r] === K_NULL ? 1 : 0;
    return floatKey(f, isNull, m, desc);
  }
  // Mixed kinds, strings, booleans, bigints: rank the distinct values of
  // each kind, then the kinds' blocks in order.
  const ids = new Uint32Array(m);
  const maps = [new Map(), new Map(), null, new Map()];
  for (let r = 0; r < m; r++) {
    if ((r & 0xffff) === 0xffff) heapCheck(); // the maps grow with the distinct values
    const k = kinds[r];
    if (k === K_NUM || k === K_STR || k === K_DATE) {
      const mp = maps[k];
      const v = k === K_STR || (k === K_NUM && bigs) ? vals[r] : f[r];
      let id = mp.get(v);
      if (id === undefined) { id = mp.size; mp.set(v, id); }
      ids[r] = id;
    } else if (k === K_BOOL) ids[r] = vals[r] ? 1 : 0;
  }
  const rankOf = [], offset = [];
  let total = 0;
  heapCheck();
  for (let k = 0; k <= K_OTHER; k++) {
    offset[k] = total;
    if (k === K_BOOL) { rankOf[k] = [0, 1]; total += 2; continue; }
    if (k === K_OTHER) { total += 1; continue; }
    rankOf[k] = rankDistinct(maps[k], k, bigs);
    total += maps[k].size;
  }
  const lo = new Uint32Array(m);
  for (let r = 0; r < m; r++) {
    const k = kinds[r];
    if (k === K_NULL) { lo[r] = NULL_KEY; continue; }
    const rank = offset[k] + (k === K_OTHER ? 0 : rankOf[k][ids[r]]);
    lo[r] = desc ? total - 1 - rank : rank;
  }
  return { lo, hi: null };
}

// radixSort reorders perm (rows 0..m-1 in some order) stably by key,
// ascending: 16-bit digits, least significant first, a digit that all
// rows share skipped.
function radixSort(perm, m, key) {
  let src = perm, dst = new Uint32Array(m);
  const count = new Uint32Array(65537);
  const passes = [[key.lo, 0], [key.lo, 16]];
  if (key.hi) passes.push([key.hi, 0], [key.hi, 16]);
  for (const [k, shift] of passes) {
    count.fill(0);
    for (let i = 0; i < m; i++) count[((k[src[i]] >>> shift) & 0xffff) + 1]++;
    let one = false;
    for (let d = 1; d <= 65536; d++) {
      if (count[d] === m) { one = true; break; }
      if (count[d]) break;
    }
    if (one) continue;
    for (let d = 1; d <= 65536; d++) count[d] += count[d - 1];
    for (let i = 0; i < m; i++) { const r = src[i]; dst[count[(k[r] >>> shift) & 0xffff]++] = r; }
    const t = src; src = dst; dst = t;
  }
  return src;
}

// sortRows orders rows (positions of the view, or null for all n) by the
// sort keys ({col, desc}; valuesAt(col, rows) reads a column's values at
// rows); returns the positions.
function sortRows(rows, n, keys, valuesAt) {
  const m = rows ? rows.length : n;
  let perm = new Uint32Array(m);
  for (let i = 0; i < m; i++) perm[i] = i;
  for (let j = keys.length - 1; j >= 0; j--) {
    const vals = valuesAt(keys[j].col, rows);
    heapCheck();
    const key = sortKey(vals, m, keys[j].desc);
    heapCheck();
    perm = radixSort(perm, m, key);
  }
  if (rows) for (let i = 0; i < m; i++) perm[i] = rows[perm[i]];
  return perm;
}
