# dapscope Python probe: selection (browsing pages of a table).
# Browse the whole value: a window of rows of the sorted/filtered view of a
# table (DataFrame, Series, 1-D/2-D array, list of records), chosen columns,
# the positions of the rows in the original value. The filter is parsed and
# evaluated by filter.py. The sorted/filtered order is cached per value and
# selection, bounded in memory, and dropped when the sidecar's generation
# changes (a stop, and any evaluate, setVariable or step it saw); an entry
# is reused only for the very object it was computed for (a weak reference
# still alive, or the object held) with the same fingerprint (_sel_version:
# length and the identity of its storage).

import weakref

_SEL = {'gen': None, 'cache': {}, 'bytes': 0, 'tick': 0, 'counts': {}}
_SEL_LIMIT = _LIMITS['sel_cache_bytes']
_MAX_PAGE = _LIMITS['max_page']
_PREFIX = _LIMITS['prefix']          # rows of a one-column sort computed first, in O(n)
_PREFIX_MIN = _LIMITS['prefix_min']  # rows from which that prefix is worth it


def _sel_frame(obj, pd):
    """The value as a DataFrame (no copy for a DataFrame) and its kind."""
    if _is(obj, 'pandas', 'DataFrame'):
        return obj, 'dataframe'
    if _is(obj, 'pandas', 'Series'):
        return obj.to_frame(name=obj.name if obj.name is not None else 'value'), 'series'
    np = _mod('numpy')
    if np is not None and isinstance(obj, np.ndarray):
        if obj.ndim not in (1, 2):
            raise _ProbeError('INVALID_ARGUMENT', 'only 1-D and 2-D arrays can be browsed (this one is %d-D)' % obj.ndim)
        if obj.ndim == 1:
            return pd.DataFrame({'value': obj}), 'ndarray'
        return pd.DataFrame(obj).rename(columns=str), 'ndarray'  # columns "0", "1", … (query: `0` > 1)
    if type(obj) in (list, tuple) and obj and all(type(r) is dict for r in obj[:1000]):
        return pd.DataFrame.from_records(list(obj)), 'records'
    raise _ProbeError('INVALID_ARGUMENT', 'a %s cannot be browsed by rows (DataFrame, Series, 1-D/2-D arrays and lists of dicts can)' % _short(type(obj)))


def _sel_columns(df, spec):
    """Positions of the chosen columns: labels, positions (ints) or globs."""
    labels = [_label(c)[0] for c in df.columns]
    if not spec:
        return list(range(len(labels)))
    import fnmatch
    out = []
    for s in spec:
        if isinstance(s, int) and not isinstance(s, bool):
            if not -len(labels) <= s < len(labels):
                raise _ProbeError('INVALID_ARGUMENT', 'column position %d is outside 0..%d' % (s, len(labels) - 1))
            hits = [s % len(labels)]
        elif isinstance(s, str) and any(ch in s for ch in '*?['):
            hits = [i for i, l in enumerate(labels) if fnmatch.fnmatchcase(l, s)]
        else:
            hits = [i for i, l in enumerate(labels) if l == str(s)]
        if not hits:
            raise _ProbeError('VARIABLE_NOT_FOUND', 'no column matches %r' % (s,), 'columns are listed in available_variables', labels[:50])
        for i in hits:
            if i not in out:
                out.append(i)
    return out


def _rank_key(np, pd, v, descending):
    """(key, nulls) for a column's values v: key is a numeric array whose
    stable ascending order is pandas' stable order of v (descending too),
    nulls a mask of the rows that go last (None: none, or NaN keys that
    numpy puts last anyway). Strings, categoricals, dates and extension
    arrays are ranked through pd.factorize and their distinct values' own
    order, so every one-column sort is a numeric one. None when the values
    do not compare (pandas then says why)."""
    if type(v) is np.ndarray:
        k = v.dtype.kind
        if k == 'f':
            return (-v if descending else v), None  # NaN stays NaN, which numpy puts last
        if k in 'iu':
            return (~v if descending else v), None  # ~ reverses the order, no overflow
        if k == 'b':
            x = v.view(np.uint8)
            return (~x if descending else x), None
        if k in 'mM':
            x, nul = v.view('i8'), np.isnat(v)
            return (~x if descending else x), (nul if nul.any() else None)
    try:
        codes, uniques = pd.factorize(v)
        uo = np.argsort(uniques, kind='stable') if type(uniques) is np.ndarray else np.asarray(uniques.argsort())
    except Exception:
        return None
    rank = np.empty(len(uo), dtype=np.int64)
    rank[uo] = np.arange(len(uo))
    nul = codes < 0
    # a null's code (-1) reads some rank; the mask puts it last
    key = rank[codes] if len(uo) else np.zeros(len(codes), dtype=np.int64)
    return (-key if descending else key), (nul if nul.any() else None)


def _combined_key(np, keys):
    """One int64 key ordering rows like the integer keys in sequence (nulls
    last in each), when their value ranges multiply within int64; None
    otherwise (floats, wide ranges): then numpy's lexsort."""
    parts, total = [], 1
    for key, nul in keys:
        if key.dtype.kind not in 'iub' or key.shape[0] == 0:
            return None
        vals = key if nul is None else key[~nul]
        lo, hi = (int(vals.min()), int(vals.max())) if vals.shape[0] else (0, 0)
        span = hi - lo + 1 + (nul is not None)
        total *= span
        if total >= 2 ** 62:
            return None
        parts.append((key, lo, span, nul))
    out = np.zeros(keys[0][0].shape[0], dtype=np.int64)
    for key, lo, span, nul in parts:
        out *= span
        k = key.astype(np.int64) - lo if key.dtype.kind != 'u' else (key - np.uint64(lo)).astype(np.int64)
        if nul is not None:
            k[nul] = span - 1
        out += k
    return out


def _rank_order(np, keys, want):
    """Positions of the stable sort by keys ((key, nulls) pairs, first key
    first; nulls last in each) and whether the order is complete: with want
    rows needed, one key over a big view gives only its first _PREFIX rows."""
    if len(keys) > 1:
        one = _combined_key(np, keys)
        if one is not None:
            return _rank_order(np, [(one, None)], want)
        seq = []
        for key, nul in reversed(keys):  # lexsort's last key is the primary one
            seq.append(key)
            if nul is not None:
                seq.append(nul)
        return np.lexsort(seq), True
    key, nul = keys[0]
    idx = None
    if nul is not None:
        idx = np.flatnonzero(~nul)
        key = key[idx]
    perm = None
    if want is not None and want <= _PREFIX and key.shape[0] >= _PREFIX_MIN:
        perm = _sorted_prefix(np, key, _PREFIX)
    full = perm is None
    if full:
        perm = np.argsort(key, kind='stable')
    if idx is not None:
        perm = idx[perm]
        if full:
            perm = np.concatenate((perm, np.flatnonzero(nul)))
    return perm, full


def _sorted_prefix(np, key, k):
    """Positions of the first k rows of the stable ascending sort of key,
    in O(n) (a partition, then a sort of k candidates); None when key has
    fewer than k non-NaN values."""
    t = np.partition(key, k - 1)[k - 1]
    if t != t:
        return None
    lt = np.flatnonzero(key < t)
    eq = np.flatnonzero(key == t)[:k - lt.shape[0]]  # ties: the first ones by position
    cand = np.concatenate((lt, eq))
    cand.sort()
    return cand[np.argsort(key[cand], kind='stable')]


def _sel_order(df, sel, np, B, want=None):
    """Positions of the filtered, sorted view (None: all rows in order) and
    whether they are complete. With want (rows needed), a one-column sort
    (of any ranked dtype) of a big view returns only its first _PREFIX rows
    (O(n), not a full sort of millions of values); a later page asks for
    the rest."""
    order = None
    flt = sel.get('filter')
    na = 0
    if flt:
        mask, na = _filter_mask(df, flt, np, _mod('pandas'))
        order = np.flatnonzero(mask)
    sort = sel.get('sort') or []
    if sort:
        cols = _sel_columns(df, [k['column'] for k in sort])
        if len(cols) != len(sort):
            raise _ProbeError('INVALID_ARGUMENT', 'sort names each column once')
        n = len(df) if order is None else len(order)
        pd = _mod('pandas')
        keys = []
        for c, k in zip(cols, sort):
            v = _col_values(df, c)
            keys.append(_rank_key(np, pd, v if order is None else _take_values(v, order), bool(k.get('descending'))))
            if keys[-1] is None:
                break
        if keys[-1] is not None:  # numpy on numeric keys, as pandas' nargsort/lexsort_indexer do
            perm, full = _rank_order(np, keys, want)
            return (perm if order is None else order[perm]), full, n, na
        view = df if order is None else df.iloc[order]
        keys = view.iloc[:, cols]
        keys.columns = range(len(cols))
        keys = keys.reset_index(drop=True)
        try:
            perm = keys.sort_values(by=list(range(len(cols))), ascending=[not k.get('descending') for k in sort],
                                    kind='stable', na_position='last').index.to_numpy()
        except Exception as e:
            raise _ProbeError('INVALID_ARGUMENT', 'cannot sort by %s: %s: %s' % ([k['column'] for k in sort], _short(type(e)), _cut(str(e), 200, _Trunc())))
        order = perm if order is None else order[perm]
    return order, True, (len(df) if order is None else len(order)), na


def _sel_version(obj):
    """A cheap fingerprint of a browsed value: its length and the identity
    of its storage (pandas' arrays, labels and manager; numpy's buffer,
    shape and strides; a list's ends). A column set or dropped, rows
    dropped in place, a value rebound: a new fingerprint. A write into the
    same arrays keeps it: the sidecar's generation covers those."""
    v = [id(type(obj))]
    try:
        v.append(len(obj))
    except Exception:
        pass
    try:
        if _is(obj, 'pandas', 'DataFrame') or _is(obj, 'pandas', 'Series'):
            mgr = obj._mgr
            v += [id(mgr), id(obj.index), id(getattr(obj, 'columns', None))]
            v.append(tuple(id(b.values) for b in mgr.blocks))  # the blocks' arrays (pandas 1.5 to 3)
        elif hasattr(obj, '__array_interface__'):
            ai = obj.__array_interface__
            v += [ai['data'][0], tuple(ai['shape']), ai['strides'], ai['typestr']]
        elif type(obj) in (list, tuple) and obj:
            v += [id(obj[0]), id(obj[-1])]
    except Exception:
        pass
    return tuple(v)


def _sel_same(hit, obj, version):
    """Whether a cached entry was computed for this very object, unchanged."""
    ref = hit['ref']
    return (ref() if type(ref) is weakref.ref else ref) is obj and hit['version'] == version


def _sel_hold(obj):
    """A weak reference to obj, or obj itself when it takes none (lists):
    held, its id cannot be reused by another value while cached."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return obj


def _select(L, G, args_json):
    t0 = time.perf_counter()
    args = json.loads(args_json)
    path = [tuple(p) for p in args['path']]
    sel = args.get('selection') or {}
    _set_precision(args.get('precision') == 'full', _CELL)
    B = _Budget(float(args.get('timeout', 2.0)))
    pd, np = _mod('pandas'), _mod('numpy')
    if _SEL['gen'] != args.get('gen'):
        _SEL.update(gen=args.get('gen'), cache={}, bytes=0, counts={})
    _SEL['resolving'] = True  # a DuckDB connection's table: one relation all the stop (duckdb.py)
    try:
        obj = _resolve(L, G, path)
    finally:
        _SEL['resolving'] = False
    ek = _engine_classify(obj)  # an engine's table: pages computed by the engine (select_engines.py)
    if ek is not None:
        return _engine_select(obj, ek, sel, args, B, path, t0)
    if pd is None or np is None:
        raise _ProbeError('INVALID_ARGUMENT', 'browsing rows needs pandas and numpy in the debuggee')
    df, kind = _sel_frame(obj, pd)
    n = len(df)
    rows = sel.get('rows') or {}
    off = max(0, int(rows.get('offset', 0)))
    lim = min(_MAX_PAGE, max(0, int(rows.get('limit', 100))))
    key = (id(obj), json.dumps([sel.get('filter'), sel.get('sort')], sort_keys=True, default=str))
    version = _sel_version(obj)
    hit = _SEL['cache'].get(key)
    if hit is not None and not _sel_same(hit, obj, version):
        _SEL['bytes'] -= _SEL['cache'].pop(key)['order'].nbytes
        hit = None
    cached = hit is not None and (hit['full'] or off + lim <= len(hit['order']))
    if cached:
        order, total, na = hit['order'], hit['total'], hit['na']
        _SEL['tick'] += 1
        hit['tick'] = _SEL['tick']
    else:
        if hit is not None:
            _SEL['bytes'] -= _SEL['cache'].pop(key)['order'].nbytes
        order, full, total, na = _sel_order(df, sel, np, B, want=None if hit is not None else off + lim)
        if order is not None:
            _SEL['tick'] += 1
            _SEL['cache'][key] = {'order': order, 'total': total, 'full': full, 'na': na, 'tick': _SEL['tick'],
                                  'ref': _sel_hold(obj), 'version': version}
            _SEL['bytes'] += order.nbytes
            while _SEL['bytes'] > _SEL_LIMIT and len(_SEL['cache']) > 1:
                old = min((k for k in _SEL['cache'] if k != key), key=lambda k: _SEL['cache'][k]['tick'])
                _SEL['bytes'] -= _SEL['cache'].pop(old)['order'].nbytes
    pos = np.arange(off, min(off + lim, total)) if order is None else order[off:off + lim]
    cols = _sel_columns(df, sel.get('columns'))
    tr = _Trunc()
    # cells column by column (a take per column, each cell formatted once as
    # JSON text), joined into rows at the end
    values = [_col_values(df, i) for i in cols]
    texts = [_page_json(np, _take_values(v, pos), tr) for v in values]
    page = {
        'kind': kind, 'total_rows': int(total), 'all_rows': int(n), 'offset': off, 'limit': lim,
        'positions': pos.tolist(),
        'columns': [{'name': _label(df.columns[i])[0], 'dtype': _dtype_str(v.dtype)} for i, v in zip(cols, values)],
        'column_count': int(df.shape[1]),
        'cached': cached,
    }
    labels = _index_cells(np, df.index, pos, tr) if kind in ('dataframe', 'series') else None
    if labels is not None:
        page['index'] = labels
    if sel.get('filter'):
        page['filter'] = sel['filter']
        if na:
            page['filter_na_rows'] = int(na)
    if sel.get('sort'):
        page['sort'] = sel['sort']
    res = {'name': _path_str(path), 'type': _tname(type(obj))}
    if tr.hit:
        res['warnings'] = ['some cells were shortened']
    if not B.ok('selection'):
        res['partial'] = True
        res['timed_out'] = B.timed_out
    rows = '[' + ','.join('[' + ','.join(r) + ']' for r in zip(*texts)) + ']' if texts else '[' + ','.join(['[]'] * len(pos)) + ']'
    res['probe_ms'] = round((time.perf_counter() - t0) * 1000, 3)
    res['page'] = page
    page['rows'] = None  # last key of the last key: spliced in below
    text = json.dumps(res, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
    assert text.endswith('"rows":null}}')
    return text[:-len('null}}')] + rows + '}}'
