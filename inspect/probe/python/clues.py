# dapscope Python probe: the clues a data person needs, as engine-agnostic
# helpers over plain numpy arrays (pandas only where a name says so): the
# ddof=1 spread, histograms that keep their tails, repeated-value counts,
# key detection, duplicate rows within a bound, and value fingerprints.
# The other engines' probes (polars, DuckDB, Arrow, Spark, Dask) call these
# with their own columns converted to numpy.

_DUP_ROWS = _LIMITS['dup_rows']        # rows counted exactly (repeats, duplicate rows)
_DUP_COLUMNS = _LIMITS['dup_columns']  # columns of an exact duplicate-row count

_KEY_NAMES = ('id', 'key', 'uuid', 'code')


def _not_computed(n, bound=None):
    """The words for a count left out: 'not computed: 1,000,000 rows > 100,000'."""
    return 'not computed: {:,} rows > {:,}'.format(int(n), int(bound or _DUP_ROWS))


def _set_moments(np, fin, res, digits, total=None):
    """res['mean'], and res['std'] with res['ddof'] = 1 (pandas' std())
    when there are two values or more, of a 1-D numpy array of finite
    numbers (total: their sum, when known), in two passes: the mean, then
    the squared deviations (one einsum: no temporary squares, no BLAS).
    Returns the mean."""
    n = int(fin.shape[0])
    if total is None:
        total = np.add.reduce(fin, dtype='float64')
    mean = float(total) / n
    res['mean'] = _num(mean, digits)
    if n >= 2:
        if n >= _SCRATCH_MIN:  # into a reused buffer (order.py), the same values
            d = np.subtract(fin, mean, out=_scratch(np, 'dev', n, np.float64), dtype=np.float64)
        else:
            d = fin - mean if fin.dtype == np.float64 else fin.astype('float64') - mean
        res['std'] = _num(math.sqrt(float(np.einsum('i,i', d, d)) / (n - 1)), digits)
        res['ddof'] = 1
    return mean


def _quantiles_sorted(ss, digits):
    """p5..p95 of a sorted array by linear interpolation (numpy's default
    and pandas' quantile/describe)."""
    return dict(('p%d' % p, _num(_quantile_sorted(ss, p), digits)) for p in (5, 25, 50, 75, 95))


def _histogram(np, ss, lo, hi, digits, fin=None, B=None):
    """Ten equal bins over the exact lo..hi (min and max). ss: the sorted
    values, or a sorted evenly spaced sample of fin (counts scaled to
    fin's size). A sample that misses the extremes gets its two extreme
    bins counted exactly over fin (one vectorised comparison each) while
    the budget B allows; otherwise the histogram says so
    ('tails': 'not counted') and the extreme bins read at least 1 (the
    exact min and max lie in them)."""
    lo, hi = float(lo), float(hi)
    mn, mx = lo, hi
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    width = (hi - lo) / 10.0
    if width - width == 0:
        # numpy.linspace(lo, hi, 11)'s very operations, without its overhead
        edges = np.arange(11.0) * width + lo
    else:  # hi - lo overflows float64 (values near ±1.8e308): each end weighted
        t = np.arange(11.0) / 10.0
        edges = lo * (1.0 - t) + hi * t
        width = hi / 10.0 - lo / 10.0
    edges[10] = hi
    m = int(ss.shape[0])
    idx = ss.below(edges[1:-1]) if hasattr(ss, 'below') else np.searchsorted(ss, edges[1:-1], side='left').tolist()
    cuts = [0] + idx + [m]
    counts = [cuts[i + 1] - cuts[i] for i in range(10)]
    h = {'start': _num(lo, digits), 'width': _num(width, digits), 'counts': counts}
    if fin is None or m >= fin.shape[0]:
        return h
    total = int(fin.shape[0])
    # scaled to all values, halves rounded up (as the JavaScript probe)
    counts = [int(math.floor(c * total / m + 0.5)) for c in counts]
    h['counts'] = counts
    if float(ss[0]) > mn or float(ss[-1]) < mx:
        if B is None or B.ok('statistics.histogram tails'):
            counts[0] = int(np.count_nonzero(fin < edges[1]))
            counts[9] = int(np.count_nonzero(fin >= edges[9]))
            h['tails_exact'] = True
        else:
            counts[0] = max(1, counts[0])
            counts[9] = max(1, counts[9])
            h['tails'] = 'not counted'
    return h


def _repeated_sorted(np, ss, finite=False):
    """How many values of a sorted 1-D array repeat an earlier one
    (len - distinct; NaN are not values; finite: there are none)."""
    if ss.dtype.kind == 'f' and not finite:
        ss = ss[~np.isnan(ss)]
    m = int(ss.shape[0])
    if m < 2:
        return 0
    return m - 1 - int(np.count_nonzero(ss[1:] != ss[:-1]))


def _std_ddof1(np, fin):
    """pandas' std() (ddof=1) of a 1-D numpy array of finite numbers; None
    under two values (pandas says NaN)."""
    r = {}
    _set_moments(np, fin, r, None)
    return r.get('std')


def _repeated_values(np, v, B=None, bound=None):
    """Repeated-value count of a 1-D numpy array of non-null values (len -
    distinct): exact up to the bound (_DUP_ROWS), beyond it while the
    budget allows; else None. Sorts numbers; hashes anything else."""
    n = int(v.shape[0])
    if n > (bound or _DUP_ROWS) and B is not None and not B.ok('statistics.repeated'):
        return None
    if v.dtype.kind in 'iufbmM':
        return _repeated_sorted(np, np.sort(v))
    pd = _mod('pandas')
    if pd is None:
        return n - len(set(v.tolist()))
    return n - int(len(pd.unique(v)))


def _key_reason(name, kind, nonnull, distinct, claims_unique=False):
    """Why a column looks like a key, or None: 'name' (id, *_id, key,
    *_key, uuid, code), 'unique index' (an index that claims uniqueness),
    or 'distinct 97%' (at least 95% distinct values of an integer or string
    column of 20 values or more). kind: the numpy dtype kind ('O' for
    strings of any engine)."""
    low = str(name).lower()
    if low in _KEY_NAMES or low.endswith('_id') or low.endswith('_key') or low.endswith(' id'):
        return 'name'
    if claims_unique:
        return 'unique index'
    if distinct is not None and nonnull >= 20 and kind in 'iuOUST' and distinct >= 0.95 * nonnull:
        return 'distinct %s%%' % _num(100.0 * distinct / nonnull, 3)
    return None


def _key_clue(cst, name, kind, claims_unique=False):
    """Marks a column's statistics (distinct, repeated) as a key with
    duplicates (key_like: the reason) when its values repeat and it looks
    like a key (claims_unique: an index of the same name claims its values
    unique)."""
    rep = cst.get('repeated')
    if not rep or cst.get('distinct_estimated') or 'distinct' not in cst:
        return
    why = _key_reason(name, kind, cst['distinct'] + rep, cst['distinct'], claims_unique)
    if why:
        cst['key_like'] = why


def _duplicate_rows_bounded(pd, np, df, distinct_cols, B, stats, order=()):
    """stats['duplicate_rows']: exact up to _DUP_ROWS rows and _DUP_COLUMNS
    columns (0 at once when a column's values are all distinct and
    non-null: distinct_cols; else by narrowing, _duplicate_rows_narrowed,
    the columns in `order` first), beyond by row hashes
    (pandas.util.hash_pandas_object; duplicate_rows_by: 'row hashes')
    while the budget allows; else duplicate_rows_not_computed says why."""
    n, k = (int(x) for x in df.shape)
    if n == 0 or k == 0:
        return
    if distinct_cols:
        stats['duplicate_rows'] = 0
        return
    exact = n <= _DUP_ROWS and k <= _DUP_COLUMNS
    if not exact and (n * k > _EXACT_LIMIT or not B.ok('duplicate_rows')):
        stats['duplicate_rows_not_computed'] = _not_computed(n) if n > _DUP_ROWS else \
            'not computed: {:,} columns > {:,}'.format(k, _DUP_COLUMNS)
        return
    if exact:
        try:
            stats['duplicate_rows'] = _duplicate_rows_narrowed(pd, np, df, order)
            return
        except Exception:
            pass  # unhashable cells: pandas' own way below
    try:
        h = pd.util.hash_pandas_object(_zero_signs_merged(pd, df), index=False).to_numpy()
    except Exception:
        h = None
    if h is not None:
        d = n - int(np.unique(h).shape[0])
        if d == 0 or not exact:
            stats['duplicate_rows'] = d
            if not exact:
                stats['duplicate_rows_by'] = 'row hashes'
            return
    stats['duplicate_rows'] = int(df.duplicated().sum())


def _duplicate_rows_narrowed(pd, np, df, order):
    """df.duplicated().sum(), exact, by narrowing: equal rows are equal in
    every column, so only the rows whose value repeats in one column (its
    pd.factorize codes, as DataFrame.duplicated's own, NA equal to NA),
    then among those the rows whose value repeats in the next, and so on,
    can be duplicates. The most distinct columns (order) go first; pandas'
    duplicated() runs on the rows left, if any."""
    k = int(df.shape[1])
    first = [i for i in order if 0 <= i < k]
    rows = None  # the candidate positions; None: all rows
    for i in first + [i for i in range(k) if i not in set(first)]:
        v = _col_values(df, i)
        if rows is not None:
            v = _take_values(v, rows)
        codes = pd.factorize(v)[0] + 1  # NA (-1) is a value here
        rep = np.bincount(codes)[codes] > 1
        rows = np.flatnonzero(rep) if rows is None else rows[rep]
        if rows.shape[0] < 2:
            return 0
    return int(df.take(rows).duplicated().sum())


def _zero_signs_merged(pd, df):
    """df for row hashing: pandas before 2 hashes -0.0 apart from 0.0
    (duplicated() holds them equal), so its float columns are hashed plus
    0.0 (-0.0 + 0.0 is 0.0); a copy of those columns only, on that pandas."""
    if int(pd.__version__.split('.')[0]) >= 2:
        return df
    fl = [i for i, t in enumerate(df.dtypes) if getattr(t, 'kind', None) in ('f', 'c')]
    if not fl:
        return df
    cols = [df.iloc[:, i] + 0.0 if i in fl else df.iloc[:, i] for i in range(df.shape[1])]
    return pd.DataFrame(dict(enumerate(cols)), copy=False)
