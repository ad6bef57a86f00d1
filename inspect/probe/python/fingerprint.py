# dapscope Python probe: value fingerprints, cheap enough to take of every
# local at every stop (debug_diff with no arguments compares them; the
# kernel view and the Variables view can too). A fingerprint changes when
# the content changes: numbers are read whole, in place (each element's
# bits summed as an unsigned integer in L lanes, element i into lane
# i mod L: one memory-order pass, no copy even of a strided column, and
# a value moved to another lane changes it too); pandas frames per column
# through their blocks (numbers as numbers, masks and codes too, object
# columns by pandas' hashes up to _SUM_STATS_LIMIT rows, past that an
# evenly spaced sample); containers by their length and a sample of their
# scalars. The parts go straight into one hash (no repr of the lanes):
# SHA-1 through OpenSSL (_fp_hash). L: 1021 lanes on numpy 2, which
# sums a (n/1021, 1021) view about a fifth faster than a (n/251, 251) one
# (its inner loop runs longer per call; the lanes hashed grow to 8 KB a
# value, about 1 ms for 50 values with SHA-1); 251 on numpy 1, where the
# longer rows gain nothing and the hashing costs 5%. One process has one
# numpy: its fingerprints compare with each other.
# No user code runs: no __hash__, __eq__ or __repr__ of the program's
# objects.

_FP_SAMPLE = 64
_FP_LANES = (251, 1021)  # numpy 1, numpy 2 (see above)
_FP_UINT = {1: 'uint8', 2: 'uint16', 4: 'uint32', 8: 'uint64'}


def _fp_put(h, part):
    """Feeds one part to the hash, framed by its length (bytes as they
    are, anything else by its repr: small parts only)."""
    if type(part) is not bytes:
        part = repr(part).encode('utf-8', 'replace')
    h.update(len(part).to_bytes(8, 'little'))
    h.update(part)


def _fp_lanes(np, h, v, rows=False):
    """Feeds the lane sums of a numpy array's elements (an N-D array in C
    order) to h; False for object data. rows: a 2-D pandas block, whose
    rows (the frame's columns) are returned apart instead, each as the
    column alone would give it (how the frame's blocks are grouped never
    shows); None where they cannot be."""
    dt = v.dtype
    if dt.kind in 'OV' or dt.hasobject:
        return None if rows else False
    u = _FP_UINT.get(dt.itemsize)
    if u is None and rows:
        return None
    if u is None:  # complex128, long double, strings: the bytes as words
        b = np.ascontiguousarray(v).reshape(-1).view(np.uint8)
        n8 = b.shape[0] // 8
        _fp_put(h, ('bytes', dt.str, v.shape))
        _fp_lanes(np, h, b[:n8 * 8].view(np.uint64))
        _fp_put(h, b[n8 * 8:].tobytes())
        return True
    rows = rows and v.ndim == 2
    if not rows:
        v = v.reshape(-1)
    w = v.view(u)
    n = w.shape[-1]
    L = _FP_LANES[np.__version__[:2] not in ('0.', '1.')] if type(_FP_LANES) is tuple else _FP_LANES
    k = n // L * L
    if not rows:
        _fp_put(h, (dt.str, n))
        if k:
            _fp_put(h, w[:k].reshape(-1, L).sum(axis=0, dtype=np.uint64).tobytes())
        _fp_put(h, w[k:].tobytes())
        return True
    lanes = w[:, :k].reshape(w.shape[0], -1, L).sum(axis=1, dtype=np.uint64) if k else None
    head = repr((dt.str, n)).encode()
    return [head + (lanes[j].tobytes() if k else b'') + w[j, k:].tobytes() for j in range(w.shape[0])]


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


def _fp_index(pd, np, h, idx):
    """An index's part of a fingerprint (a RangeIndex by its range)."""
    r = getattr(idx, '_range', None)
    if type(r) is range:
        _fp_put(h, ('range', r.start, r.stop, r.step))
        return
    _fp_put(h, ('index', len(idx), str(idx.dtype)))
    _fp_column(pd, np, h, idx._values)


def _fp_column(pd, np, h, v):
    """A column's (numpy or extension array) part of a fingerprint: numbers
    whole (an extension array's numpy parts: masked data and mask,
    datetimes' int64s, categories' codes), object data by pandas' hashes
    (an evenly spaced sample past _SUM_STATS_LIMIT rows)."""
    if isinstance(v, np.ndarray) and _fp_lanes(np, h, v):
        return
    dt = getattr(v, 'dtype', None)
    if getattr(dt, 'name', '') == 'category':
        _fp_lanes(np, h, np.asarray(v.codes))
        _fp_column(pd, np, h, np.asarray(v.categories))
        return
    parts = [getattr(v, a, None) for a in ('_ndarray', '_data', '_mask')]
    if isinstance(parts[0], np.ndarray) and _fp_lanes(np, h, parts[0]):
        _fp_put(h, str(dt))
        return
    if isinstance(parts[1], np.ndarray) and isinstance(parts[2], np.ndarray) and _fp_lanes(np, h, parts[1]):
        _fp_lanes(np, h, parts[2])
        _fp_put(h, str(dt))
        return
    try:
        n = len(v)
        if n > _SUM_STATS_LIMIT:
            v = v[_sample_positions(np, n, _SUM_STATS_LIMIT)]
        hv = pd.util.hash_array(np.asarray(v, dtype=object)) if getattr(dt, 'kind', 'O') == 'O' else \
            pd.util.hash_pandas_object(pd.Series(v), index=False).to_numpy()
        _fp_put(h, n)
        _fp_lanes(np, h, hv)
    except Exception:
        _fp_put(h, (len(v), _fp_scalars(v, len(v))))


def _fp_frame(pd, np, h, df):
    """A DataFrame's columns through its blocks (a 2-D block read once in
    memory order, each column's lanes apart, then fed in column order);
    column by column where the blocks cannot be read."""
    n = df.shape[1]
    cols = [None] * n
    try:
        for blk in df._mgr.blocks:
            locs = blk.mgr_locs.as_array.tolist()
            vals = blk.values
            got = _fp_lanes(np, h, vals, rows=True) if isinstance(vals, np.ndarray) and vals.ndim == 2 else None
            if type(got) is list and len(got) == len(locs):
                for j, i in enumerate(locs):
                    cols[i] = got[j]
    except Exception:
        pass
    for i in range(n):
        if cols[i] is not None:
            _fp_put(h, cols[i])
        else:
            _fp_put(h, i)
            _fp_column(pd, np, h, _col_values(df, i))


_FP_BYTES_PER_S = 2e9  # a slow machine's single-core read


def _fp_in_budget(obj, B):
    """Whether reading obj for its fingerprint fits the time left (numpy
    arrays and pandas frames by their bytes at _FP_BYTES_PER_S; anything
    else is read from a sample: yes while time is left)."""
    if not B.ok('fingerprints'):
        return False
    n = 0
    try:
        np, pd = _mod('numpy'), _mod('pandas')
        if np is not None and isinstance(obj, np.ndarray):
            n = obj.nbytes
        elif pd is not None and isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
            n = int(obj.memory_usage(index=True, deep=False).sum()) if isinstance(obj, pd.DataFrame) else int(obj.nbytes)
    except Exception:
        return False
    return n / _FP_BYTES_PER_S <= max(0.0, B.deadline - time.perf_counter())


def _fp_hash():
    """The hash a fingerprint's parts go into: SHA-1 through OpenSSL,
    two to three times blake2b's speed per byte on x86 (the lanes of 50
    values of 1M cells are 3 MB); a change detector, not a secret.
    blake2b where SHA-1 is refused (a FIPS build)."""
    import hashlib
    try:
        return hashlib.sha1(usedforsecurity=False)
    except Exception:
        return hashlib.blake2b(digest_size=8)


def _fingerprint(obj):
    """A short text that changes when obj's content changes (the same
    content, the same text; None when it cannot be taken without user
    code). Engine-agnostic entry: numpy arrays, pandas DataFrames, Series
    and Indexes, lists, tuples, dicts, sets, strings, numbers; other
    objects by identity and their __dict__'s scalars."""
    np, pd = _mod('numpy'), _mod('pandas')
    t = type(obj)
    h = _fp_hash()
    try:
        if t in (int, float, str, bytes, bool, complex) or obj is None:
            _fp_put(h, (_tname(t), obj))
        elif np is not None and isinstance(obj, np.ndarray):
            _fp_put(h, ('ndarray', obj.shape, str(obj.dtype)))
            if not _fp_lanes(np, h, obj):
                _fp_put(h, _fp_scalars(obj.reshape(-1), obj.size))
        elif pd is not None and isinstance(obj, pd.DataFrame):
            _fp_put(h, ('DataFrame', obj.shape, tuple(str(c) for c in obj.columns[:200])))
            _fp_index(pd, np, h, obj.index)
            _fp_frame(pd, np, h, obj)
        elif pd is not None and isinstance(obj, (pd.Series, pd.Index)):
            _fp_put(h, (_tname(t), len(obj), str(obj.dtype)))
            if isinstance(obj, pd.Series):
                _fp_index(pd, np, h, obj.index)
            _fp_column(pd, np, h, obj._values)
        elif t in (list, tuple):
            _fp_put(h, (_tname(t), len(obj), _fp_scalars(obj, len(obj))))
        elif t is dict:
            n = len(obj)
            keys = list(obj)[:_FP_SAMPLE] if n <= _FP_SAMPLE else [k for i, k in enumerate(obj) if i % max(1, n // _FP_SAMPLE) == 0]
            _fp_put(h, ('dict', n, _fp_scalars(keys, len(keys)), _fp_scalars([obj[k] for k in keys], len(keys))))
        elif t in (set, frozenset):
            _fp_put(h, (_tname(t), len(obj)))
        else:
            d = getattr(obj, '__dict__', None)
            if type(d) is not dict:
                return None
            _fp_put(h, (_tname(t), id(obj), tuple(sorted((k, v) for k, v in zip(d, _fp_scalars(list(d.values()), len(d))) if type(k) is str))))
        return h.hexdigest()[:16]
    except Exception:
        return None
