# dapscope Python probe: value fingerprints, cheap enough to take of every
# local at every stop (debug_diff with no arguments compares them; the
# kernel view and the Variables view can too). A fingerprint changes when
# the content changes: numbers are read whole (sums of the buffer as
# unsigned words in 251 lanes, so a moved value changes it too);
# pandas frames per column (numbers as numbers, other columns by pandas'
# hashes up to _SUM_STATS_LIMIT rows, past that an evenly spaced sample);
# containers by their length and a sample of their scalars. No user code
# runs: no __hash__, __eq__ or __repr__ of the program's objects.

_FP_SAMPLE = 64
_FP_LANES = 251


def _fp_words(np, v):
    """A numpy array's bytes summed as unsigned 64-bit words in 251 lanes
    (word i into lane i mod 251: one pass, and a value moved to another
    lane changes it), with the bytes left over; None for object data."""
    if v.dtype.kind in 'OV' or v.dtype.hasobject:
        return None
    v = np.ascontiguousarray(v)
    b = v.reshape(-1).view(np.uint8)
    n8 = b.shape[0] // 8
    w = b[:n8 * 8].view(np.uint64)
    k = w.shape[0] // _FP_LANES * _FP_LANES
    lanes = w[:k].reshape(-1, _FP_LANES).sum(axis=0, dtype=np.uint64).tobytes() if k else b''
    return (lanes, w[k:].tobytes(), b[n8 * 8:].tobytes())


def _fp_scalars(seq, n):
    """Up to _FP_SAMPLE evenly spaced elements of a sequence, as what can
    be hashed without running user code (numbers, strings, bytes, None:
    their value; anything else: its type and identity)."""
    out = []
    m = min(n, _FP_SAMPLE)
    for j in range(m):
        x = seq[j * n // m]
        t = type(x)
        if t in (int, float, str, bytes, bool) or x is None:
            out.append(x)
        else:
            out.append((_tname(t), id(x)))
    return out


def _fp_index(pd, np, idx):
    """An index's part of a fingerprint (a RangeIndex by its range)."""
    r = getattr(idx, '_range', None)
    if type(r) is range:
        return ('range', r.start, r.stop, r.step)
    return _fp_column(pd, np, idx._values)


def _fp_column(pd, np, v):
    """A column's (numpy or extension array) part of a frame's fingerprint."""
    if getattr(v, 'dtype', None) is not None and isinstance(v, np.ndarray):
        w = _fp_words(np, v)
        if w is not None:
            return w
    dt = getattr(v, 'dtype', None)
    if getattr(dt, 'name', '') == 'category':
        return (_fp_words(np, np.asarray(v.codes)), _fp_column(pd, np, np.asarray(v.categories)))
    try:
        n = len(v)
        if n > _SUM_STATS_LIMIT:
            v = v[_sample_positions(np, n, _SUM_STATS_LIMIT)]
        h = pd.util.hash_array(np.asarray(v, dtype=object)) if getattr(dt, 'kind', 'O') == 'O' else \
            pd.util.hash_pandas_object(pd.Series(v), index=False).to_numpy()
        return (n, _fp_words(np, h))
    except Exception:
        return (len(v), _fp_scalars(v, len(v)))


def _fingerprint(obj):
    """A short text that changes when obj's content changes (the same
    content, the same text; None when it cannot be taken without user
    code). Engine-agnostic entry: numpy arrays, pandas DataFrames, Series
    and Indexes, lists, tuples, dicts, sets, strings, numbers; other
    objects by identity and their __dict__'s scalars."""
    np, pd = _mod('numpy'), _mod('pandas')
    t = type(obj)
    if t in (int, float, str, bytes, bool, complex) or obj is None:
        parts = (_tname(t), obj)
    elif np is not None and isinstance(obj, np.ndarray):
        parts = ('ndarray', obj.shape, str(obj.dtype), _fp_words(np, obj) or _fp_scalars(obj.reshape(-1), obj.size))
    elif pd is not None and isinstance(obj, pd.DataFrame):
        n = obj.shape[1]
        parts = ('DataFrame', obj.shape, tuple(str(c) for c in obj.columns[:200]), _fp_index(pd, np, obj.index),
                 tuple(_fp_column(pd, np, _col_values(obj, i)) for i in range(n)))
    elif pd is not None and isinstance(obj, (pd.Series, pd.Index)):
        idx = _fp_index(pd, np, obj.index) if isinstance(obj, pd.Series) else None
        parts = (_tname(t), len(obj), str(obj.dtype), idx, _fp_column(pd, np, obj._values))
    elif t in (list, tuple):
        parts = (_tname(t), len(obj), _fp_scalars(obj, len(obj)))
    elif t is dict:
        n = len(obj)
        keys = list(obj)[:_FP_SAMPLE] if n <= _FP_SAMPLE else [k for i, k in enumerate(obj) if i % max(1, n // _FP_SAMPLE) == 0]
        parts = ('dict', n, _fp_scalars(keys, len(keys)), _fp_scalars([obj[k] for k in keys], len(keys)))
    elif t in (set, frozenset):
        parts = (_tname(t), len(obj))
    else:
        d = getattr(obj, '__dict__', None)
        if type(d) is not dict:
            return None
        parts = (_tname(t), id(obj), tuple(sorted((k, v) for k, v in zip(d, _fp_scalars(list(d.values()), len(d))) if type(k) is str)))
    try:
        import hashlib
        return hashlib.blake2b(repr(parts).encode('utf-8', 'replace'), digest_size=8).hexdigest()
    except Exception:
        return None
