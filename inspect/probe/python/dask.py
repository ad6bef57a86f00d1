# dapscope Python probe: Dask DataFrames, Series and Arrays. Free (nothing
# computed): the meta (an empty pandas frame), dtypes, npartitions,
# divisions, an Array's shape and chunks. Within the time budget, run by
# Dask on whatever scheduler the program uses (threads, or a distributed
# cluster: the work runs on its workers), in ONE dask.compute: the row
# count, nulls and each column's reductions (min, max, mean, std with
# ddof=1, zeros, nunique, string lengths, first/last dates); then bounded
# follow-ups: an evenly spaced sample of at most _SAMPLE numbers per
# column, and top values only where nunique is small. Only these bounded
# results come back to the program's process; a frame is never collected
# whole. The result says what ran ("computed by Dask: 2 computes, 0.4 s").

# ---------------------------------------------------------------- dask

_DASK_TOP_LIMIT = 10000  # distinct values above which top values are not gathered


def _dask_kind(dt):
    k = getattr(dt, 'kind', 'O')
    s = str(dt)
    if s == 'category':
        return 'cat'
    if s in ('bool', 'boolean'):
        return 'bool'
    if k in 'iu':
        return 'int'
    if k == 'f':
        return 'float'
    if k == 'M':
        return 'datetime'
    if k == 'O' or s in ('string', 'str'):
        return 'str'
    return 'other'


def _dask_cluster():
    """The distributed scheduler's address, when a client is in use."""
    d = _mod('distributed')
    if d is None:
        return None
    try:
        c = d.get_client() if hasattr(d, 'get_client') else None
        return str(c.scheduler.address) if c is not None else None
    except Exception:
        return None


class _DaskStopped(Exception):
    """A compute stopped at the time budget (what: the budget's name)."""

    def __init__(self, what):
        Exception.__init__(self, what)
        self.what = what


def _dask_run(B, what, *colls):
    """dask.compute(*colls), stopped at the time budget: on a distributed
    client (the scheduler dask.compute would use) the work runs as futures,
    cancelled on the cluster when the budget ends; on a local scheduler
    (threads, processes, sync) a callback refuses every task that would
    start after it (a task already running ends as it will, its result
    unread). Raises _DaskStopped."""
    dask = _mod('dask')
    try:
        sched = dask.base.get_scheduler(collections=list(colls))
    except Exception:
        sched = None
    client = getattr(sched, '__self__', None)
    if client is not None and _is(client, 'distributed', 'Client') and not getattr(client, 'asynchronous', False):
        futs = client.compute(list(colls))
        try:
            _mod('distributed').wait(futs, timeout=max(0.001, B.deadline - time.perf_counter()))
        except Exception:  # the budget's end (a TimeoutError)
            client.cancel(futs)
            raise _DaskStopped(what)
        return tuple(client.gather(futs))

    def pretask(key, dsk, state):
        if time.perf_counter() >= B.deadline:
            raise _DaskStopped(what)
    cb = getattr(sys.modules.get('dask.callbacks'), 'Callback', None)  # loaded with dask's local schedulers
    if cb is None:
        return dask.compute(*colls)
    with cb(pretask=pretask):
        return dask.compute(*colls)


def _dask_guarded(f):
    """An inspection whose compute stopped at the budget keeps what it had
    (the free facts, the computes that ended) and names what stopped."""
    def g(obj, opts, B, res, *a):
        try:
            f(obj, opts, B, res, *a)
        except _DaskStopped as e:
            if e.what not in B.timed_out:
                B.timed_out.append(e.what)
            res['warnings'].append('Dask compute stopped at the time budget (%s): its tasks were cancelled' % e.what)
    return g


def _dask_first_last(p):
    """Per partition: its first and last non-null value (a tiny frame; runs
    on a worker, pickled by value: see _dask_with_pos)."""
    nn = p.dropna()
    return nn.iloc[[0, -1]] if len(nn) else nn.iloc[:0]


_dask_first_last.__module__ = '__main__'


def _inspect_dask_df(df, opts, B, res, single=False):
    dask = _mod('dask')
    meta = df._meta
    names = [str(c) for c in meta.columns]
    cols = [_EngCol(n, str(d), _dask_kind(d)) for n, d in zip(names, meta.dtypes.tolist())]
    for c in cols:
        c.clues = True  # nunique is exact: repeated values and keys
    _eng_structure(res, None, cols)
    div = None
    if df.known_divisions:
        div = [_cell(df.divisions[0], 1, _Trunc()), _cell(df.divisions[-1], 1, _Trunc())]
    _eng_engine(res, name='dask', lazy=True, partitions=int(df.npartitions), divisions=div, cluster=_dask_cluster())
    if not B.ok('dask.compute'):
        return
    stats = bool(opts.get('include_statistics', True))
    t0, computes = time.perf_counter(), 0
    tasks = {'n': df.shape[0], 'null': df.isna().sum()}
    for i, c in enumerate(cols[:_STAT_COLUMNS] if stats else []):
        s = df[meta.columns[i]]
        if c.kind in ('int', 'float'):
            f = s.astype('float64')
            tasks.update({(i, 'min'): s.min(), (i, 'max'): s.max(), (i, 'mean'): f.mean(), (i, 'std'): f.std(ddof=1),
                          (i, 'zeros'): (s == 0).sum(), (i, 'distinct'): s.nunique(), (i, 'finite'): s.count()})
        elif c.kind == 'bool':
            tasks[(i, 'true')] = s.sum()
        elif c.kind in ('str', 'cat', 'other'):
            tasks[(i, 'distinct')] = s.nunique()
            if c.kind == 'str':
                ln = s.dropna().astype(str).str.len()
                tasks.update({(i, 'lmin'): ln.min(), (i, 'lmax'): ln.max(), (i, 'lmean'): ln.mean()})
        elif c.kind == 'datetime':
            tasks.update({(i, 'min'): s.min(), (i, 'max'): s.max(), (i, 'ends'): s.map_partitions(_dask_first_last),
                          (i, 'dt_distinct'): s.nunique()})
    keys = list(tasks)
    vals = _dask_run(B, 'dask.compute', *[tasks[k] for k in keys])
    computes += 1
    got = dict(zip(keys, vals))
    n = int(got['n'])
    nulls = got['null'].tolist()
    for c, k in zip(cols, nulls):
        c.nulls = int(k)
        if c.kind == 'float' and not hasattr(meta[c.name].dtype, 'na_value'):
            c.agg['nan'] = int(k)  # numpy floats: pandas' NaN is its null
    for (i, k), v in ((k, v) for k, v in got.items() if isinstance(k, tuple)):
        c = cols[i]
        if k == 'ends':
            v = v.tolist()
            if v:
                c.agg['first'], c.agg['last'] = v[0], v[-1]
            continue
        c.agg[k] = None if v is None or (isinstance(v, float) and v != v) or str(v) in ('<NA>', 'NaT') else (v.item() if hasattr(v, 'item') else v)
    res['structure']['shape'][0] = n
    for e, c in zip(res['structure']['columns'], cols):
        e['null_count'] = int(c.nulls)
    # preview: the first rows (the first partitions only) and the last ones
    rows, tail_n = _eng_tail_n(n, opts)
    pc = list(meta.columns[:_PREVIEW_COLUMNS])
    ends = [df[pc].head(rows, npartitions=-1, compute=False)] + ([df[pc].tail(tail_n, compute=False)] if tail_n else [])
    ends = _dask_run(B, 'preview', *ends)
    head, tail = ends[0], (ends[1] if tail_n else None)
    computes += 1
    _eng_preview(res, names, [tuple(r) for r in head.itertuples(index=False)],
                 [tuple(r) for r in tail.itertuples(index=False)] if tail is not None and len(tail) == tail_n else None, n, opts)
    if stats:
        try:
            computes += _dask_followups(dask, df, meta, cols, B)
        except _DaskStopped as e:  # the reductions' facts (counts, repeats, keys) are kept
            if e.what not in B.timed_out:
                B.timed_out.append(e.what)
            res['warnings'].append('Dask compute stopped at the time budget (%s): its tasks were cancelled' % e.what)
        note = 'computed by Dask: %d computes, %.3g s' % (computes, time.perf_counter() - t0)
        ran = []
        _eng_statistics(res, cols, n, B, opts, None, None if single else lambda: _dask_distinct_rows(B, df, ran))
        note = 'computed by Dask: %d computes, %.3g s' % (computes + len(ran), time.perf_counter() - t0)
        res['statistics']['computed'] = note
    else:
        note = 'computed by Dask: %d computes, %.3g s' % (computes, time.perf_counter() - t0)
    _eng_engine(res, computed=note)
    if single:
        _eng_single(res)


def _dask_followups(dask, df, meta, cols, B):
    """Numeric samples (at most _SAMPLE values each) and top values (only
    where nunique <= _DASK_TOP_LIMIT), in one more compute."""
    tasks = {}
    for i, c in enumerate(cols[:_STAT_COLUMNS]):
        s = df[meta.columns[i]]
        if c.kind in ('int', 'float') and c.agg.get('finite'):
            fin = s.dropna()
            size = int(c.agg['finite'])
            if size <= _SAMPLE:
                tasks[(i, 'sample')] = fin
            else:  # every k-th value, k = ceil(size / _SAMPLE): bounded, spread over all partitions
                k = -(-size // _SAMPLE)
                tasks[(i, 'sample')] = fin.map_partitions(lambda p, k=k: p.iloc[::k])
        elif c.kind in ('str', 'cat', 'other') and (c.agg.get('distinct') or 0) <= _DASK_TOP_LIMIT:
            tasks[(i, 'top')] = s.value_counts(sort=False, dropna=True)
    if not tasks or not B.ok('dask.statistics'):
        return 0
    keys = list(tasks)
    got = dict(zip(keys, _dask_run(B, 'dask.statistics', *[tasks[k] for k in keys])))
    for (i, k), v in got.items():
        c = cols[i]
        if k == 'sample':
            c.sample = v.astype('float64').tolist()
        else:
            items = [(x, int(n)) for x, n in zip(v.index.tolist(), v.tolist()) if n]
            if c.kind == 'cat':  # ties in category order, as pandas
                order = dict((x, j) for j, x in enumerate(meta[c.name].cat.categories.tolist()))
            else:  # Dask keeps no row order across partitions: ties in value order
                order = dict((x, j) for j, x in enumerate(sorted(x for x, _ in items)))
            c.top = sorted(items, key=lambda t: (-t[1], order.get(t[0], 0)))[:5]
    for c in cols:
        if c.kind == 'str' and c.agg.get('lmin') is not None:
            c.str_len = (c.agg['lmin'], c.agg['lmax'], c.agg['lmean'])
        if c.kind == 'cat':
            c.categories = len(meta[c.name].cat.categories) if hasattr(meta[c.name], 'cat') else None
            c.ordered = bool(meta[c.name].cat.ordered)
    return 1


def _dask_distinct_rows(B, df, ran):
    """The frame's distinct rows, counted by Dask (drop_duplicates: NaN
    equal to NaN, as pandas' duplicated()) in a compute of its own (ran:
    the computes that ran), stopped at the time budget: the facts computed
    before it are kept, and duplicate_rows_not_computed says what stopped."""
    ran.append(1)
    try:
        return int(_dask_run(B, 'duplicate_rows', df.drop_duplicates().shape[0])[0])
    except _DaskStopped as e:
        if e.what not in B.timed_out:
            B.timed_out.append(e.what)
        raise _EngNotComputed('the Dask compute stopped at the time budget (duplicate_rows)')


def _inspect_dask_array(a, opts, B, res):
    dask = _mod('dask')
    st = res['structure'] = {'shape': [int(x) if x == x else None for x in a.shape], 'ndim': int(a.ndim), 'dtype': str(a.dtype)}
    st['itemsize'] = int(a.dtype.itemsize)
    if all(x == x for x in a.shape):
        st['size'] = int(a.size)
        st['nbytes'] = int(a.nbytes)
    _eng_engine(res, name='dask', lazy=True, partitions=int(a.npartitions), cluster=_dask_cluster())
    if a.ndim == 1 and 'size' in st and B.ok('preview'):  # edge items: only the first and last blocks run
        k = max(1, int(opts.get('max_preview_items', 10)) // 2)
        tr = _Trunc()
        if a.size > 2 * k:
            head, tail = _dask_run(B, 'preview', a[:k], a[-k:])
            vals = [_cell(x, 1, tr) for x in head.tolist()] + [_ELL] + [_cell(x, 1, tr) for x in tail.tolist()]
            tr.hit = True
        else:
            vals = [_cell(x, 1, tr) for x in _dask_run(B, 'preview', a)[0].tolist()]
        res['preview'] = {'values': vals}
        if tr.hit:
            res['preview']['is_truncated'] = True
    if not opts.get('include_statistics', True) or a.dtype.kind not in 'biuf' or 'size' not in st or not B.ok('dask.compute'):
        return
    t0 = time.perf_counter()
    da = _mod('dask.array')
    flat = a.ravel()
    fin = flat[da.isfinite(flat)] if a.dtype.kind == 'f' else flat
    f64 = fin.astype('float64')
    n_fin, mn, mx, mean, std, zeros, nan = _dask_run(B, 'dask.compute', fin.size if a.dtype.kind != 'f' else da.isfinite(flat).sum(), fin.min(),
                                                       fin.max(), f64.mean(), f64.std(ddof=1), (fin == 0).sum(),
                                                       da.isnan(flat).sum() if a.dtype.kind == 'f' else 0)
    r = res['statistics'] = {'count': int(a.size)}
    _count(r, 'nan_count', nan)
    if int(n_fin):
        r['min'], r['max'] = (_num(mn, _STAT), _num(mx, _STAT)) if a.dtype.kind == 'f' else (_exact(mn), _exact(mx))
        r['mean'], r['std'], r['ddof'] = _num(mean, _STAT), _num(std, _STAT), 1
        _count(r, 'zeros', zeros)
        k = -(-int(a.size) // _SAMPLE)  # every k-th element of the flat array (known chunks), the finite ones
        sample = [x for x in _dask_run(B, 'dask.statistics', flat[::k].astype('float64'))[0].tolist() if math.isfinite(x)]
        if sample:
            _eng_quantiles(sample, float(mn), float(mx), int(n_fin), r)
    r['computed'] = 'computed by Dask: 2 computes, %.3g s' % (time.perf_counter() - t0)
    _eng_engine(res, computed=r['computed'])


_ENGINE_INSPECT.update(dask_df=_dask_guarded(_inspect_dask_df), dask_array=_dask_guarded(_inspect_dask_array),
                       dask_series=_dask_guarded(lambda s, opts, B, res: _inspect_dask_df(s.to_frame(), opts, B, res, True)))


# ---------------------------------------------------------------- dask pages

_DASK_PAGE_ROWS = 2000000  # rows a sorted page may gather from all partitions


def _dask_with_pos(p, bases, partition_info=None):
    """A partition with its rows' global positions (runs on a worker)."""
    import numpy
    return p.assign(__dapscope_pos=numpy.arange(len(p), dtype='int64') + bases[partition_info['number'] if partition_info else 0])


def _dask_sorted_head(p, by, ascending, want):
    """A partition's first `want` rows in pandas' stable order, nulls last
    (runs on a worker)."""
    return p.sort_values(list(by), ascending=list(ascending), kind='stable', na_position='last').iloc[:want]


# The helpers above run where the partitions live: pickled by value (as
# __main__'s functions are), they need nothing of the probe there.
_dask_with_pos.__module__ = _dask_sorted_head.__module__ = '__main__'


class _FBDask(_FBPolars):
    """Dask Series operations (pandas' own, partition by partition), with
    pandas' nullable booleans: three-valued (Kleene) as filter.py is."""

    def __init__(self, df):
        self.df = df

    def col(self, name):
        return self.df[name]

    def no_dup(self, keep):
        return ('duplicated() is not computed over Dask: a row\'s repeats may lie in any partition, so it '
                'needs a full shuffle of the frame')

    def lit(self, v):
        return v

    def _known(self, r, *vals):
        r = r.astype('boolean')
        nul = None
        for v in vals:
            if hasattr(v, 'isna'):
                nul = v.isna() if nul is None else nul | v.isna()
        return r if nul is None else r.mask(nul)

    def and_(self, a, b):
        return self._b(a) & self._b(b)

    def or_(self, a, b):
        return self._b(a) | self._b(b)

    def xor(self, a, b):
        return self._b(a) ^ self._b(b)

    def not_(self, a):
        return ~self._b(a)

    def _b(self, a):
        return a.astype('boolean') if hasattr(a, 'astype') else a

    def cmp(self, op, a, b):
        return self._known(_FL_CMP[getattr(ast, op)](a, b), a, b)

    def isin(self, a, vals):
        return self._known(a.isin(vals), a)

    def isnull(self, a):
        return a.isna()

    def contains(self, a, pat, case, regex):
        return self._known(a.str.contains(pat, case=case, regex=regex), a)

    def affix(self, a, p, start):
        return self._known(a.str.startswith(p) if start else a.str.endswith(p), a)

    def strfn(self, a, m):
        return getattr(a.str, m)()


def _dask_page(df, kind, sel, off, lim, B):
    try:
        return _dask_page_run(df, kind, sel, off, lim, B)
    except _DaskStopped:
        raise _ProbeError('INSPECTION_TIMEOUT', 'the Dask compute of the page stopped at the time budget: its tasks were cancelled',
                          'a longer timeout, or a filter that lets Dask read less')


def _dask_page_run(df, kind, sel, off, lim, B):
    np = _mod('numpy')
    if kind == 'dask_series':
        df = df.to_frame()
    meta = df._meta
    names = [str(c) for c in meta.columns]
    kinds = dict((str(c), _dask_kind(d)) for c, d in zip(meta.columns, meta.dtypes.tolist()))
    cols = _sel_columns(meta, sel.get('columns'))
    flt, sort = sel.get('filter'), sel.get('sort') or []
    by = _eng_sort_names(names, sort) if sort else []
    mask = _fl_compile(flt, kinds, _FBDask(df)) if flt else None  # refused before anything runs
    if sort and (off + lim) * df.npartitions > _DASK_PAGE_ROWS:
        raise _ProbeError('INVALID_ARGUMENT', 'a sorted page at row %d of a Dask frame would gather %d rows from its %d partitions (at most %d)' % (
            off, (off + lim) * df.npartitions, df.npartitions, _DASK_PAGE_ROWS), 'filter first, or browse an earlier page')
    t0 = time.perf_counter()
    lens = _dask_run(B, 'selection', df.map_partitions(len))[0].tolist()
    bases = [sum(lens[:j]) for j in range(len(lens))]
    n, computes = sum(lens), 1
    x = df.map_partitions(_dask_with_pos, bases=tuple(bases), meta=meta.assign(__dapscope_pos=np.array([], dtype='int64')))
    na, total, pending = 0, n, None
    if mask is not None:
        keep = mask.fillna(False).astype(bool)
        x = x.loc[keep]  # (x[keep] comes back as a Series in dask 2026.8)
        if sel.get('count'):
            total, na = _dask_run(B, 'selection', keep.sum(), mask.isna().sum())
            total, na, computes = int(total), int(na), computes + 1
        else:  # the page first: the filter's counts read every partition, a compute of their own
            total, pending = None, _DASK_PENDING
    if not lim:
        window = x._meta  # the count alone
    elif sort:
        asc = [not k.get('descending') for k in sort]
        top = _dask_run(B, 'selection', x.map_partitions(_dask_sorted_head, by=tuple(by), ascending=tuple(asc), want=off + lim, meta=x._meta))[0]
        rows = top.sort_values('__dapscope_pos', kind='stable').sort_values(by, ascending=asc, kind='stable', na_position='last')
        window = rows.iloc[off:off + lim]
    elif mask is not None:
        window = _dask_run(B, 'selection', x.head(off + lim, npartitions=-1, compute=False))[0].iloc[off:]
    else:  # only the partitions holding the window run
        parts = [j for j in range(len(lens)) if bases[j] < off + lim and bases[j] + lens[j] > off]
        got = _dask_run(B, 'selection', *[df.partitions[j] for j in parts]) if parts else []
        got = [g.assign(__dapscope_pos=np.arange(len(g), dtype='int64') + bases[j]) for g, j in zip(got, parts)]
        rows = _mod('pandas').concat(got) if got else x._meta
        window = rows[(rows['__dapscope_pos'] >= off) & (rows['__dapscope_pos'] < off + lim)]
    computes += 1 if lim else 0
    out = [tuple(r) for r in window.iloc[:, cols].itertuples(index=False)]
    return {'names': [names[i] for i in cols], 'dtypes': [str(meta.dtypes.iloc[i]) for i in cols], 'all_rows': n, 'total': total,
            'na': na, 'rows': out, 'positions': window['__dapscope_pos'].tolist(), 'column_count': len(names), 'pending': pending,
            'computed': 'computed by Dask: %d compute%s, %.3g s' % (computes, '' if computes == 1 else 's', time.perf_counter() - t0)}


_DASK_PENDING = 'counted on request: the filter read over every partition by a compute of its own'


_ENGINE_PAGE.update(dask_df=_dask_page, dask_series=_dask_page)
