// dapscope JavaScript probe: statistics — of numbers (count, NaN/inf, min,
// max, mean, std, quantiles, histogram, distinct from one evenly spaced
// sample) and of a column or array of any values (by their kinds: numbers,
// strings, booleans, dates, mixed).

// late checks the budget every 65,536 elements of a long loop.
function late(i, B, label) { return (i & 0xffff) === 0xffff && !B.ok(label); }

function quantile(ss, m, p) {
  const pos = p / 100 * (m - 1);
  const lo = M.floor(pos), hi = M.min(lo + 1, m - 1);
  return ss[lo] + (ss[hi] - ss[lo]) * (pos - lo);
}

// numStats: exact count, NaN/inf, min, max, mean, std, zeros over the n
// numbers xs[0..n-1] (an array or typed array); quantiles, histogram and
// distinct from one sorted, evenly spaced sample of at most SAMPLE finite
// values. The loops are plain indexed reads with no calls: code evaluated
// in a paused V8 runs unoptimised, where every call per element counts.
function numStats(xs, n, res, ints, B, label) {
  res.count = n;
  let nan = 0, inf = 0, posInf = 0, zeros = 0, cnt = 0, s1 = 0, s2 = 0, k = 0, mn = Infinity, mx = -Infinity;
  let sorted, m, d = 0, f1 = 0;
  if (n <= SAMPLE) {
    // Every value fits the sample: copy and sort natively (NaN sorts last,
    // then ±Infinity sit at the ends), and take sums, distinct values and
    // singletons in ONE interpreted pass over the sorted finite values.
    const all = new Float64Array(xs).sort();
    let hiN = n;
    while (hiN > 0 && all[hiN - 1] !== all[hiN - 1]) hiN--;
    let lo = 0, hi = hiN;
    while (lo < hi && all[lo] === -Infinity) lo++;
    while (hi > lo && all[hi - 1] === Infinity) hi--;
    nan = n - hiN; inf = lo + hiN - hi; posInf = hiN - hi;
    sorted = all.subarray(lo, hi); m = cnt = hi - lo;
    if (cnt) {
      mn = sorted[0]; mx = sorted[cnt - 1]; k = sorted[0];
      let run = 1;
      for (let i = 0; i < cnt; i++) {
        const x = sorted[i];
        const dx = x - k;
        s1 += dx; s2 += dx * dx;
        if (x === 0) zeros++;
        if (i && x !== sorted[i - 1]) { d++; if (run === 1) f1++; run = 1; } else if (i) run++;
      }
      d++; if (run === 1) f1++;
    }
  } else {
    // One pass: counts, min/max, sums shifted by the first finite value (a
    // stable variance); then an evenly spaced sample of the finite values.
    k = NaN;
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0xffff && !B.ok(label)) return;
      const x = xs[i];
      if (x - x !== 0) { if (x !== x) nan++; else { inf++; if (x > 0) posInf++; } continue; } // NaN or ±Infinity
      if (cnt === 0) k = x;
      cnt++;
      const dx = x - k;
      s1 += dx;
      s2 += dx * dx;
      if (x < mn) mn = x;
      if (x > mx) mx = x;
      if (x === 0) zeros++;
    }
    if (cnt) {
      // The sample: the finite values at positions floor(j * cnt / m), j <
      // m, spread over all of them (as the Python probe's _stride_sample).
      m = M.min(SAMPLE, cnt);
      const ss = new Float64Array(m);
      for (let i = 0, f = 0, j = 0, next = 0; i < n && j < m; i++) {
        const x = xs[i];
        if (x - x !== 0) continue;
        if (f++ === next) { ss[j++] = x; next = M.floor(j * cnt / m); }
      }
      sorted = ss.subarray(0, m).sort();
      let run = 1;
      d = m ? 1 : 0;
      for (let i = 1; i < m; i++) {
        if (sorted[i] !== sorted[i - 1]) { d++; if (run === 1) f1++; run = 1; } else run++;
      }
      if (m && run === 1) f1++;
    }
  }
  if (nan) res.nan_count = nan; // zero counters are left out (the result model's compact form)
  if (inf) res.inf_count = inf;
  if (!cnt) return;
  const mean = k + s1 / cnt;
  res.min = ints ? mn : num(mn, STAT);
  res.max = ints ? mx : num(mx, STAT);
  res.mean = num(mean, STAT);
  if (cnt > 1) { // ddof=1, as pandas' std() and describe()
    res.std = num(M.sqrt(M.max(0, (s2 - s1 * s1 / cnt) / (cnt - 1))), STAT);
    res.ddof = 1;
  }
  if (zeros) res.zeros = zeros;
  const sampled = m < cnt;
  if (sampled) { res.sampled = true; res.sample_size = m; }
  res.quantiles = { p5: num(quantile(sorted, m, 5), STAT), p25: num(quantile(sorted, m, 25), STAT), p50: num(quantile(sorted, m, 50), STAT),
    p75: num(quantile(sorted, m, 75), STAT), p95: num(quantile(sorted, m, 95), STAT) };
  let lo = mn, hi = mx;
  if (lo === hi) { lo -= 0.5; hi += 0.5; }
  // Ten bins [e0, e1) … [e9, e10]: on sorted values, a bin's count is the
  // difference of two lower bounds (binary searches, not a pass).
  const edges = [], counts = new A(10);
  // hi - lo overflows past ±1.8e308: each end weighted (as the Python probe)
  const wide = (hi - lo) - (hi - lo) !== 0;
  for (let i = 0; i <= 10; i++) edges.push(wide ? lo * (1 - i / 10) + hi * (i / 10) : lo + (hi - lo) * i / 10);
  const below = (e) => { let l = 0, h = m; while (l < h) { const mid = (l + h) >> 1; if (sorted[mid] < e) l = mid + 1; else h = mid; } return l; };
  let prev = 0;
  for (let b = 0; b < 9; b++) { const at = below(edges[b + 1]); counts[b] = at - prev; prev = at; }
  counts[9] = m - prev;
  // A sampled histogram is scaled to all values, halves rounded up (as
  // the Python probe).
  res.histogram = { start: num(lo, STAT), width: num(wide ? hi / 10 - lo / 10 : (hi - lo) / 10, STAT), counts: sampled ? counts.map((c) => M.floor(c * cnt / m + 0.5)) : counts };
  if (!sampled) { res.distinct = d; } else {
    const est = d > 0.9 * m ? d / m * cnt : M.sqrt(cnt / m) * f1 + (d - f1);
    res.distinct = M.min(cnt, M.max(d, M.round(est)));
    res.distinct_estimated = true;
  }
  // infinities are values too (as pandas' nunique and the Python probe)
  if (inf) res.distinct += (posInf ? 1 : 0) + (inf - posInf ? 1 : 0);
}

// valueKind is the column type of one value ("undefined" for missing keys).
function valueKind(v) {
  const t = typeof v;
  if (v === null) return 'null';
  if (t !== 'object' && t !== 'function') return t;
  const k = tag(v);
  return k === 'Object' || k === 'Error' ? className(v) : k;
}

// valueStats: statistics of the values vals[0..n-1] (an array's elements or
// a table column, read once), by their kinds. Returns {dtype, nulls}.
// (counted: the primitive kind counts a caller already took in its own
// pass over the values, when it saw no objects; saves a pass.)
function valueStats(vals, n, res, B, label, counted) {
  const kinds = {};
  let nNum = 0, nStr = 0, nBool = 0, nNull = 0, nUndef = 0;
  if (counted) {
    ({ nNum, nStr, nBool, nNull, nUndef } = counted);
  } else {
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0xffff && !B.ok(label)) return null;
      const v = vals[i];
      const t = typeof v;
      if (t === 'number') nNum++;
      else if (t === 'string') nStr++;
      else if (t === 'boolean') nBool++;
      else if (t === 'undefined') nUndef++;
      else if (v === null) nNull++;
      else { const k = valueKind(v); kinds[k] = (kinds[k] || 0) + 1; }
    }
  }
  if (nNum) kinds.number = nNum;
  if (nStr) kinds.string = nStr;
  if (nBool) kinds.boolean = nBool;
  if (nNull) kinds.null = nNull;
  if (nUndef) kinds.undefined = nUndef;
  const nulls = nNull + nUndef;
  const present = keysOf(kinds).filter((k) => k !== 'null' && k !== 'undefined');
  const dtype = present.length === 0 ? 'null' : present.length === 1 ? present[0] : 'mixed';
  res.count = n;
  if (present.length > 1) res.element_types = kinds;
  if (!n || present.length === 0) return { dtype, nulls };
  if (dtype === 'number') {
    let nums = vals, ints = true;
    if (nulls) {
      nums = new Float64Array(n - nulls);
      for (let i = 0, j = 0; i < n; i++) { const x = vals[i]; if (typeof x === 'number') nums[j++] = x; }
    }
    const m = nums.length;
    for (let i = 0; i < m; i++) { const x = nums[i]; if (x - x !== 0 || x !== M.floor(x)) { ints = false; break; } } // not Number.isInteger
    numStats(nums, m, res, ints, B, label);
    return { dtype, nulls };
  }
  if (dtype === 'boolean') {
    let t = 0;
    for (let i = 0; i < n; i++) if (vals[i] === true) t++;
    const f = n - nulls - t;
    res.true_count = t;
    res.true_rate = num(t / (n - nulls), STAT);
    res.top_values = [{ value: true, count: t }, { value: false, count: f }].filter((x) => x.count).sort((a, b) => b.count - a.count);
    res.distinct = (t > 0 ? 1 : 0) + (f > 0 ? 1 : 0);
    return { dtype, nulls };
  }
  if (dtype === 'Date') {
    let mn = Infinity, mx = -Infinity, first, last, bad = 0;
    for (let i = 0; i < n; i++) {
      const v = vals[i];
      if (valueKind(v) !== 'Date') continue;
      const t = apply(dateGetTime, v, []);
      if (t !== t) { bad++; continue; }
      if (first === undefined) first = t;
      last = t;
      if (t < mn) mn = t;
      if (t > mx) mx = t;
    }
    if (first !== undefined) {
      const iso = (t) => new Date(t).toISOString();
      res.first = iso(first); res.last = iso(last); res.min = iso(mn); res.max = iso(mx);
    }
    if (bad) res.nan_count = bad;
    return { dtype, nulls };
  }
  // Strings, bigints, objects, mixed: distinct and top values of the
  // primitive values over a sample, string lengths.
  if (!B.ok(label + '.top_values')) return { dtype, nulls };
  // An evenly spaced sample over all values: positions floor(j * n / m).
  const sampled = n > OBJ_SAMPLE;
  const m = sampled ? OBJ_SAMPLE : n;
  const counts = new Map();
  let taken = 0, lmin = Infinity, lmax = 0, lsum = 0, strs = 0, unhashable = 0;
  for (let j = 0; j < m; j++) {
    taken++;
    let v = vals[sampled ? M.floor(j * n / m) : j];
    if (v === null || v === undefined) continue;
    const t = typeof v;
    if (t === 'string') { const l = v.length; strs++; lsum += l; if (l < lmin) lmin = l; if (l > lmax) lmax = l; }
    else if (t === 'bigint') v = bigText(v) + 'n';
    else if (t === 'object' || t === 'function' || t === 'symbol') { unhashable++; continue; }
    counts.set(v, (counts.get(v) || 0) + 1);
  }
  if (sampled) { res.sampled = true; res.sample_size = taken; }
  if (counts.size) {
    res.distinct = counts.size;
    if (sampled) res.distinct_estimated = true;
    const top = [];
    for (const [v, c] of counts) {
      if (top.length < 5) { top.push([v, c]); top.sort((a, b) => b[1] - a[1]); } else if (c > top[4][1]) { top[4] = [v, c]; top.sort((a, b) => b[1] - a[1]); }
    }
    const tr = new Trunc();
    res.top_values = top.map(([v, c]) => ({ value: cell(v, 1, tr), count: c }));
  }
  if (dtype === 'string' && strs) res.str_len = { min: lmin, max: lmax, mean: num(lsum / strs, STAT) };
  return { dtype, nulls };
}
