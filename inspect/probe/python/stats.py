# dapscope Python probe: statistics of numbers (count, NaN/inf, min, max,
# mean, std, quantiles, histogram, distinct) and of a column of any dtype.

# ---------------------------------------------------------------- statistics

from collections import Counter as _Counter
from itertools import islice as _islice


def _sample_positions(np, size, n):
    """n evenly spaced positions spread over all of 0..size-1: floor(j *
    size / n), j < n (the JavaScript probe takes the same ones)."""
    return (np.arange(n, dtype='int64') * size) // n


def _stride_sample(v, n):
    """n evenly spaced elements of the 1-D array v (all of v, unsampled,
    when it has no more than n)."""
    size = v.shape[0]
    if size <= n:
        return v, False
    return v[_sample_positions(_mod('numpy'), size, n)], True


def _distinct_from_sorted(np, ss, sampled, n_total, res):
    """Distinct count from a sorted (sample of a) 1-D array: exact when not
    sampled, else the GEE estimate (flagged)."""
    m = int(ss.shape[0])
    if m == 0:
        return
    if ss.dtype.kind == 'f':
        ss = ss[~np.isnan(ss)]
        m = int(ss.shape[0])
        if m == 0:
            return
    change = np.flatnonzero(ss[1:] != ss[:-1])
    d = int(change.shape[0]) + 1
    if not sampled:
        res['distinct'] = d
        return
    if d > 0.9 * m:
        # nearly every sampled value is unique: scale (GEE badly
        # underestimates continuous data)
        est = float(d) / m * n_total
    else:
        # run lengths give the singletons f1; GEE: sqrt(N/n) * f1 + (d - f1)
        bounds = np.concatenate(([0], change + 1, [m]))
        f1 = int(np.count_nonzero(np.diff(bounds) == 1))
        est = math.sqrt(float(n_total) / m) * f1 + (d - f1)
    res['distinct'] = int(min(n_total, max(d, round(est))))
    res['distinct_estimated'] = True


def _distinct(np, v, n_total, res):
    try:
        s, sampled = _stride_sample(v, _SAMPLE)
        _distinct_from_sorted(np, np.sort(s), sampled or n_total > v.shape[0], n_total, res)
    except Exception:
        pass


def _quantile_sorted(ss, p):
    """numpy's default (linear) percentile of a sorted array."""
    pos = p / 100.0 * (ss.shape[0] - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, ss.shape[0] - 1)
    return float(ss[lo]) + (float(ss[hi]) - float(ss[lo])) * (pos - lo)


def _numeric_stats(np, v, res, want_quant=True, distinct=False, B=None, repeated=False, total=None):
    """v: 1-D numpy array of ints/uints/floats (full data). Exact: count,
    NaN/inf, min, max, mean, std (ddof=1, as pandas), zeros. Up to
    _DUP_ROWS finite values, one sort of all of them gives exact quantiles,
    histogram, distinct and (repeated=True) the repeated-value count;
    beyond, one sorted evenly spaced sample of at most _SAMPLE values
    (flagged sampled) gives them, the histogram's tails exact
    (_histogram). total: np.add.reduce(v, dtype='float64'), when known."""
    n = int(v.shape[0])
    res['count'] = n
    if n > 4096 and not v.flags.c_contiguous:
        # a column of a frame made from one 2-D array is strided (every
        # value on its own cache line): one copy, then every pass is dense
        v = np.ascontiguousarray(v)
    fin = v
    tot = None
    if v.dtype.kind == 'f':
        # one reduction: a finite sum means no NaN or inf (and is the mean's)
        tot = total if total is not None else np.add.reduce(v, dtype='float64') if n else 0.0
        if not math.isfinite(tot):
            tot = None
            # counters are left out when zero
            nan = np.isnan(v)
            inf = np.isinf(v)
            _count(res, 'nan_count', np.count_nonzero(nan))
            _count(res, 'inf_count', np.count_nonzero(inf))
            fin = v[~(nan | inf)]
    nf = int(fin.shape[0])
    if nf == 0:
        return
    # the exact sort while half the budget is left (an old numpy sorts
    # 100K floats in ~6 ms: 50 columns must not time the inspection out)
    full = repeated and want_quant and nf <= _DUP_ROWS and (B is None or nf <= _SAMPLE or B.left() > 0.5)
    mom = {}  # the moments first, while the values are in cache; listed after min and max
    _set_moments(np, fin, mom, _STAT, tot)
    if full:
        ss = _sorted_or_order(np, fin)
        mn, mx = ss[0], ss[-1]
    else:
        mn, mx = fin.min(), fin.max()
    if fin.dtype.kind == 'f':
        res['min'] = _num(mn, _STAT)
        res['max'] = _num(mx, _STAT)
    else:
        res['min'] = _exact(mn)
        res['max'] = _exact(mx)
    res.update(mom)
    if full and type(ss) is np.ndarray:  # zeros by two binary searches of the sorted values
        z = ss.dtype.type(0)  # (a key of another dtype would cast all of ss first)
        _count(res, 'zeros', int(ss.searchsorted(z, 'right')) - int(ss.searchsorted(z)))
    elif full:  # an _F32Order: none unless a float32 is zero
        _count(res, 'zeros', ss.zeros())
    else:
        _count(res, 'zeros', np.count_nonzero(fin == 0))
    if not want_quant:
        return
    sampled = False
    if not full:
        s, sampled = _stride_sample(fin, _SAMPLE)
        ss = _sorted_copy(np, s)
    m = int(ss.shape[0])
    if sampled and not res.get('sampled'):
        res['sampled'] = True
        res['sample_size'] = m
    res['quantiles'] = _quantiles_sorted(ss, _STAT)
    res['histogram'] = _histogram(np, ss, mn, mx, _STAT, fin if sampled else None, B)
    if distinct:
        if sampled:
            _distinct_from_sorted(np, ss, sampled, nf, res)
        elif type(ss) is np.ndarray:  # ss: all finite values, sorted
            res['distinct'] = nf - _repeated_sorted(np, ss, finite=True)
        else:  # an _F32Order of them
            res['distinct'] = ss.distinct
        infs = 0
        if res.get('inf_count') and 'distinct' in res:
            # infinities are values too (as in pandas' nunique)
            infs = int(bool((v == np.inf).any())) + int(bool((v == -np.inf).any()))
            res['distinct'] += infs
        if repeated and not sampled and 'distinct' in res:
            _count(res, 'repeated', nf + int(res.get('inf_count', 0)) - res['distinct'])
        elif repeated:
            res['repeated_not_computed'] = _not_computed(nf) if nf > _DUP_ROWS else 'not computed: time budget'


def _count(res, key, k):
    """Sets a counter only when it is not zero (absent means none)."""
    k = int(k)
    if k:
        res[key] = k


def _types_of(it, limit=_TYPE_SAMPLE):
    """The type names of the first `limit` items of it with their counts,
    in order of first appearance (counted in C: one Counter over the
    types, then a name per distinct type)."""
    items = list(_islice(it, limit))
    out = {}
    try:
        counted = _Counter(map(type, items)).items()
    except TypeError:  # an unhashable type (a metaclass with __eq__ only)
        counted = [(type(x), 1) for x in items]
    for t, c in counted:
        k = _short(t)
        out[k] = out.get(k, 0) + c
    return out


def _series_stats(pd, np, s, B, opts, res, label, pre=None):
    """Per-column / Series statistics. `res` receives the fields. pre: a
    float column's values and their sum, when known (_null_count)."""
    n = int(len(s))
    dt = s.dtype
    kind = getattr(dt, 'kind', 'O')
    dname = _dtype_str(dt)
    res['count'] = n
    if n == 0:
        return
    if dname == 'category':
        cat = s.cat
        res['categories'] = int(len(cat.categories))
        res['ordered'] = bool(cat.ordered)
        if B.ok(label + '.top_values'):
            # value_counts(dropna=True).head(5) from the codes: most frequent
            # first, ties in category order
            codes = cat.codes.to_numpy()
            k = np.bincount(codes[codes >= 0], minlength=len(cat.categories))
            top = [int(i) for i in np.argsort(-k, kind='stable')[:5] if k[i]]
            cats = cat.categories
            res['top_values'] = [{'value': _cell(cats[i], 1, _Trunc()), 'count': int(k[i])} for i in top]
            res['distinct'] = int(np.count_nonzero(k))
            _count(res, 'repeated', int(k.sum()) - res['distinct'])
        return
    if kind == 'b' and dname == 'bool':
        v = s.to_numpy()
        t = int(np.count_nonzero(v))
        res['true_count'] = t
        res['true_rate'] = _num(float(t) / n, _STAT)
        tv = [x for x in ({'value': True, 'count': t}, {'value': False, 'count': n - t}) if x['count']]
        res['top_values'] = sorted(tv, key=lambda x: -x['count'])
        res['distinct'] = int((t > 0) + (n - t > 0))
        _count(res, 'repeated', n - res['distinct'])
        return
    if kind in 'iuf' and not hasattr(dt, 'na_value'):
        v, tot = pre if pre is not None else (s.to_numpy(), None)
        _numeric_stats(np, v, res, distinct=True, B=B, repeated=True, total=tot)
        return
    if kind in 'iuf':  # nullable extension dtypes (Int64, Float64)
        v = s.to_numpy(dtype='float64', na_value=float('nan'))
        _numeric_stats(np, v, res, distinct=True, B=B, repeated=True)
        res.pop('nan_count', None)
        return
    if kind in 'mM':
        if _time_stats(pd, np, s, B, res):
            return
    if kind == 'M':
        nn = s.dropna()
        if len(nn):
            res['first'] = _cell(nn.iloc[0], 1, _Trunc())
            res['last'] = _cell(nn.iloc[-1], 1, _Trunc())
            res['min'] = _cell(nn.min(), 1, _Trunc())
            res['max'] = _cell(nn.max(), 1, _Trunc())
        return
    if kind == 'm':
        nn = s.dropna()
        if len(nn):
            res['min'] = str(nn.min())
            res['max'] = str(nn.max())
            res['mean'] = str(nn.mean())
        return
    if kind == 'c':
        v = s.to_numpy()
        _count(res, 'nan_count', np.isnan(v).sum())
        res['mean'] = repr(complex(v.mean()))
        return
    # object / string / other extension types
    sampled = n > _OBJ_SAMPLE
    ss = s.iloc[_sample_positions(np, n, _OBJ_SAMPLE)] if sampled else s
    if sampled:
        res['sampled'] = True
        res['sample_size'] = int(len(ss))
    # The non-null values are never listed whole: the element types come
    # from the first ones. The counts come from one value_counts (NA
    # dropped in its hash pass), and the string lengths from the distinct
    # values weighted by their counts: the same min, max and
    # (integer-exact) mean as from every value.
    head = _first_nonnull(pd, np, ss, _TYPE_SAMPLE)
    types = _types_of(head) if len(head) else {}
    if types:
        res['element_types'] = types
    vc = None
    if B.ok(label + '.top_values'):
        try:
            vc = ss.value_counts(sort=False, dropna=True)  # in first-seen order
            cnt = vc.to_numpy()
            res['distinct'] = int(len(vc))
            if sampled:
                res['distinct_estimated'] = True
                res['repeated_not_computed'] = _not_computed(n, _OBJ_SAMPLE)
            else:
                _count(res, 'repeated', int(cnt.sum()) - res['distinct'])
            # most frequent first, ties in first-seen order (as the
            # JavaScript probe; pandas' own order of ties is arbitrary):
            # the counts at least the fifth largest, then a stable sort
            idx = np.arange(len(cnt))
            if len(cnt) > 5:
                idx = np.flatnonzero(cnt >= np.partition(cnt, len(cnt) - 5)[len(cnt) - 5])
            idx = idx[np.argsort(-cnt[idx], kind='stable')][:5]
            keys = vc.index[idx].tolist()
            res['top_values'] = [{'value': _cell(k, 1, _Trunc()), 'count': int(cnt[i])} for k, i in zip(keys, idx.tolist())]
        except Exception:
            vc = None  # unhashable cells (lists, dicts)
    if types and set(types) <= {'str'} and B.ok(label + '.str_len'):
        try:
            if vc is None:
                lens = _str_lens(np, ss.dropna(), dname)
                mean = lens.mean()
            else:
                lu = np.fromiter(map(len, vc.index.tolist()), dtype='int64', count=len(vc))
                lens = lu[cnt > 0]
                mean = float((lu * cnt).sum()) / float(cnt.sum())
            res['str_len'] = {'min': int(lens.min()), 'max': int(lens.max()), 'mean': _num(mean, _STAT)}
        except Exception:
            pass


def _first_nonnull(pd, np, ss, k):
    """The first k non-null values of a Series, as a list: from its first
    2k values (an object column's by one isna of its numpy values, no
    Series built), from all of them when nulls crowd those."""
    v = ss._values
    if type(v) is np.ndarray:
        h = v[:2 * k]
        h = h[~pd.isna(h)][:k]
        if len(h) == k or len(v) <= 2 * k:
            return h.tolist()
        return v[~pd.isna(v)][:k].tolist()
    head = ss.iloc[:2 * k].dropna().iloc[:k]
    if len(head) < k and len(ss) > 2 * k:
        head = ss.dropna().iloc[:k]  # nulls crowd the head: the first values from all
    return head.tolist()


def _str_lens(np, nn, dname):
    """The lengths (code points) of a column's non-null strings: pandas'
    own vectorised str.len() for its string dtypes (pyarrow's
    utf8_length), len() mapped in C over the values otherwise (object
    columns: pandas' str.len() there is slower than the list)."""
    if dname in ('string', 'str') or dname.startswith('string['):
        return nn.str.len().to_numpy(dtype='int64')
    return np.fromiter(map(len, nn.tolist()), dtype='int64', count=len(nn))


def _time_stats(pd, np, s, B, res):
    """A naive datetime or a timedelta column held as numpy datetime64 /
    timedelta64, from one sort of its non-null int64 values (up to
    _DUP_ROWS; past that min/max only and the repeats by _repeated_values
    within the budget): min, max, first and last (datetimes), mean
    (timedeltas, as pandas: exact integer nanoseconds), repeated. False
    when the column is another kind (tz-aware: pandas' own path)."""
    if not isinstance(s.dtype, np.dtype) or s.dtype.kind not in 'mM':
        return False
    v = s.to_numpy()  # datetime64 / timedelta64, no copy
    ok = ~np.isnat(v)
    nn = v[ok] if not ok.all() else v
    if nn.shape[0] == 0:
        return True
    i8 = nn.view('int64')
    if nn.shape[0] <= _DUP_ROWS:
        ss = np.sort(i8)
        _count(res, 'repeated', _repeated_sorted(np, ss))
        lo, hi = ss[0], ss[-1]
    else:
        lo, hi = i8.min(), i8.max()
        r = _repeated_values(np, i8, B)
        if r is None:
            res['repeated_not_computed'] = _not_computed(len(s))
        else:
            _count(res, 'repeated', r)
    box = (lambda x: pd.Timestamp(np.int64(x).view(nn.dtype))) if v.dtype.kind == 'M' else \
        (lambda x: pd.Timedelta(np.int64(x).view(nn.dtype)))
    if v.dtype.kind == 'M':
        res['first'] = _cell(box(i8[0]), 1, _Trunc())
        res['last'] = _cell(box(i8[-1]), 1, _Trunc())
        res['min'] = _cell(box(lo), 1, _Trunc())
        res['max'] = _cell(box(hi), 1, _Trunc())
    else:
        res['min'] = str(box(lo))
        res['max'] = str(box(hi))
        res['mean'] = str(s.mean())
    return True


def _sequence_stats(seq, n, B, res):
    """Statistics of a list's, tuple's or deque's elements, by their kinds,
    as the JavaScript probe gives an array's (valueStats): numbers (bools
    are not numbers) the numeric statistics of the non-null ones; booleans
    their true count; strings distinct and top values and lengths; a mix or
    anything else none. Numbers need numpy in the debuggee."""
    nums, strs, bools, nulls, other = 0, 0, 0, 0, 0
    for i, x in enumerate(seq):
        if i & 0xffff == 0xffff and not B.ok('statistics'):
            return
        t = type(x)
        if t is bool:
            bools += 1
        elif t is int or t is float:
            nums += 1
        elif t is str:
            strs += 1
        elif x is None:
            nulls += 1
        else:
            other += 1
    present = [k for k, c in (('number', nums), ('string', strs), ('boolean', bools)) if c]
    if other or len(present) != 1:
        return
    res['count'] = n
    if present[0] == 'number':
        np = _mod('numpy')
        if np is None:
            res.pop('count')
            return
        vals = [x for x in seq if x is not None]
        ints = all(type(x) is int for x in vals) and all(-2 ** 63 <= x < 2 ** 63 for x in vals)
        _numeric_stats(np, np.array(vals, dtype='int64' if ints else 'float64'), res, distinct=True)
        return
    if present[0] == 'boolean':
        t = sum(1 for x in seq if x is True)
        f = n - nulls - t
        res['true_count'] = t
        res['true_rate'] = _num(float(t) / (n - nulls), _STAT)
        tv = [x for x in ({'value': True, 'count': t}, {'value': False, 'count': f}) if x['count']]
        res['top_values'] = sorted(tv, key=lambda x: -x['count'])
        res['distinct'] = int(t > 0) + int(f > 0)
        return
    # strings: an evenly spaced sample, most frequent first (ties in
    # first-seen order), lengths
    items = seq if isinstance(seq, (list, tuple)) else list(seq)
    m = min(n, _OBJ_SAMPLE)
    counts, lens = {}, []
    for j in range(m):
        x = items[j * n // m]
        if x is None:
            continue
        counts[x] = counts.get(x, 0) + 1
        lens.append(len(x))
    if n > m:
        res['sampled'] = True
        res['sample_size'] = m
        res['distinct_estimated'] = True
    res['distinct'] = len(counts)
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    res['top_values'] = [{'value': _cell(k, 1, _Trunc()), 'count': c} for k, c in top]
    if lens:
        res['str_len'] = {'min': min(lens), 'max': max(lens), 'mean': _num(float(sum(lens)) / len(lens), _STAT)}
