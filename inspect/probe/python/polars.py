# dapscope Python probe: polars DataFrames, Series and LazyFrames, read
# with polars' own expressions: the cheap facts (schema, shape, estimated
# size, null counts) and every column's statistics in ONE select; top
# values by a group_by per column; numbers for quantiles and the histogram
# gathered evenly spaced (at most _SAMPLE per column); repeated values and
# keys from the exact n_unique, duplicate rows by DataFrame.n_unique (the
# same clues as pandas', engines.py: _eng_clues). A LazyFrame gives
# its schema (collect_schema) and its plan (explain) and is never collected
# unless the caller asks (the `compute` option); then the statistics run on
# the collected frame, bounded by the time budget, and the result says so.

# ---------------------------------------------------------------- polars


def _pl_kind(pl, dt):
    if dt.is_integer():
        return 'int'
    if dt.is_float():
        return 'float'
    if dt == pl.Boolean:
        return 'bool'
    if dt == pl.String:
        return 'str'
    if isinstance(dt, (pl.Categorical, pl.Enum)):
        return 'cat'
    if isinstance(dt, pl.Datetime) or dt == pl.Date:
        return 'datetime'
    return 'other'


def _pl_aggs(pl, i, name, kind):
    """The aggregate expressions of one column (aliases "<i>:<fact>")."""
    c = pl.col(name)
    a = lambda e, k: e.alias('%d:%s' % (i, k))
    out = [a(c.null_count(), 'null')]
    if kind in ('int', 'float'):
        fin = c.filter(c.is_finite()) if kind == 'float' else c
        out += [a(fin.min(), 'min'), a(fin.max(), 'max'), a(fin.cast(pl.Float64).mean(), 'mean'),
                a(fin.cast(pl.Float64).std(ddof=1), 'std'), a((fin == 0).sum(), 'zeros'),
                a(fin.drop_nulls().n_unique(), 'distinct'), a(fin.count(), 'finite')]
        if kind == 'float':
            out += [a(c.is_nan().sum(), 'nan'), a(c.is_infinite().sum(), 'inf'),
                    a(c.filter(c.is_infinite()).drop_nulls().n_unique(), 'infs')]
    elif kind == 'bool':
        out.append(a(c.sum(), 'true'))
    elif kind == 'str':
        ln = c.str.len_chars()
        out += [a(c.drop_nulls().n_unique(), 'distinct'), a(ln.min(), 'lmin'), a(ln.max(), 'lmax'), a(ln.mean(), 'lmean')]
    elif kind == 'cat':
        out.append(a(c.drop_nulls().n_unique(), 'distinct'))
    elif kind == 'datetime':
        nn = c.drop_nulls()
        out += [a(c.min(), 'min'), a(c.max(), 'max'), a(nn.first(), 'first'), a(nn.last(), 'last'), a(nn.n_unique(), 'dt_distinct')]
    return out


def _pl_top(pl, df, name, kind):
    """Five most frequent values, ties in first-seen order (categoricals:
    in category order, as pandas)."""
    g = (df.lazy().select(pl.col(name).alias('v')).with_row_index('i').drop_nulls('v')
         .group_by('v').agg(pl.len().alias('n'), pl.col('i').min().alias('i')))
    if kind == 'cat':  # ties in the categories' (lexical) order, as pandas' Categorical of the values
        g = g.with_columns(pl.col('v').cast(pl.String).alias('i'))
    return [(r[0], r[1]) for r in g.sort(['n', 'i'], descending=[True, False]).head(5).collect().rows()]


def _pl_columns(pl, df, B, opts, stats=True):
    """The columns' facts of a polars DataFrame: one select for every
    aggregate, then samples and top values while the budget lasts."""
    schema = df.schema
    cols = []
    for name, dt in schema.items():
        c = _EngCol(str(name), str(dt), _pl_kind(pl, dt))
        c.clues = True  # n_unique is exact: repeated values and keys
        cols.append(c)
    aggs = []
    for i, c in enumerate(cols):
        aggs += _pl_aggs(pl, i, c.name, c.kind) if stats and i < _STAT_COLUMNS else [pl.col(c.name).null_count().alias('%d:null' % i)]
    row = df.select(aggs).row(0, named=True) if aggs else {}
    for key, v in row.items():
        i, k = key.split(':', 1)
        c = cols[int(i)]
        if k == 'null':
            c.nulls = int(v)
        else:
            c.agg[k] = v
    if not stats:
        return cols
    for i, c in enumerate(cols[:_STAT_COLUMNS]):
        if not B.ok('statistics.columns[%d:]' % i):
            break
        if c.kind == 'float' and c.agg.get('distinct') is not None:
            c.agg['distinct'] += int(c.agg.pop('infs', 0) or 0)
        if c.kind in ('int', 'float') and c.agg.get('finite'):
            s = df.get_column(c.name)
            s = s.filter(s.is_finite()) if c.kind == 'float' else s.drop_nulls()
            if len(s) > _SAMPLE:
                s = s.gather(_eng_sample_positions(len(s)))
            c.sample = s.cast(pl.Float64).to_list()
        elif c.kind in ('str', 'cat', 'other'):
            try:
                c.top = _pl_top(pl, df, c.name, c.kind)
            except Exception:
                pass
            if c.kind == 'str' and c.agg.get('lmin') is not None:
                c.str_len = (c.agg['lmin'], c.agg['lmax'], c.agg['lmean'])
            if c.kind == 'cat':
                dt = schema[c.name]
                c.ordered = isinstance(dt, pl.Enum)
                c.categories = len(dt.categories) if c.ordered else c.agg.get('distinct')
    return cols


def _inspect_polars_df(df, opts, B, res, lazy_plan=None, note=None, frame=True):
    pl = _mod('polars')
    stats = bool(opts.get('include_statistics', True))
    cols = _pl_columns(pl, df, B, opts, stats)
    n = int(df.height)
    try:
        mem = int(df.estimated_size())
    except Exception:
        mem = None
    _eng_structure(res, n, cols, mem)
    rows, tail_n = _eng_tail_n(n, opts)
    names = [c.name for c in cols]
    sub = df.select(names[:_PREVIEW_COLUMNS])
    _eng_preview(res, names, sub.head(rows).rows(), sub.tail(tail_n).rows() if tail_n else None, n, opts)
    # duplicate rows: polars' own count of distinct rows (DataFrame.n_unique)
    _eng_statistics(res, cols, n, B, opts, note, df.n_unique if frame else None)
    _eng_engine(res, name='polars', plan=lazy_plan)


def _inspect_polars_series(s, opts, B, res):
    _inspect_polars_df(s.to_frame(), opts, B, res, frame=False)
    _eng_single(res)


def _inspect_polars_lazy(lf, opts, B, res):
    """Schema and plan; collected only when opts.compute asks."""
    pl = _mod('polars')
    schema = lf.collect_schema()
    try:
        plan = _cut(lf.explain(), 4000, _Trunc())
    except Exception as e:
        plan = 'explain() failed: %s' % _short(type(e))
    if not opts.get('compute'):
        cols = [_EngCol(str(k), str(v), _pl_kind(pl, v)) for k, v in schema.items()]
        _eng_structure(res, None, cols)
        _eng_engine(res, name='polars', lazy=True, plan=plan)
        res['warnings'].append('a LazyFrame is not collected: schema and plan only (the compute option collects it)')
        return
    t0 = time.perf_counter()
    df = lf.collect()
    took = time.perf_counter() - t0
    _inspect_polars_df(df, opts, B, res, plan, 'computed by polars: collected the plan in %.3g s' % took)
    res['structure']['engine']['lazy'] = True
    res['structure']['engine']['computed'] = res['statistics']['computed'] if 'statistics' in res else 'collected'


_ENGINE_INSPECT.update(polars_df=_inspect_polars_df, polars_series=_inspect_polars_series, polars_lazy=_inspect_polars_lazy)


# ---------------------------------------------------------------- polars pages

def _pl_page(obj, kind, sel, off, lim, B):
    """A page computed by polars: the filter as a polars Expr, a stable
    sort with nulls last, then the page's rows gathered by position. The
    order (positions of the filtered, sorted rows) is cached as select.py
    caches pandas' (a later page is a gather)."""
    pl = _mod('polars')
    if kind == 'polars_series':
        obj = obj.to_frame()
    lazy = kind == 'polars_lazy'
    lf = obj if lazy else None
    schema = lf.collect_schema() if lazy else obj.schema
    names = [str(k) for k in schema]
    kinds = dict((str(k), _pl_kind(pl, v)) for k, v in schema.items())
    flt, sort = sel.get('filter'), sel.get('sort') or []
    cols = [names[i] for i in _sel_columns(_EngNames(names), sel.get('columns'))]
    all_rows = int(lf.select(pl.len()).collect().item()) if lazy else int(obj.height)
    out = {'names': cols, 'dtypes': [str(schema[c]) for c in cols], 'all_rows': all_rows, 'na': 0, 'cached': False,
           'column_count': len(names)}
    if not flt and not sort:
        page = lf.select(cols).slice(off, lim).collect() if lazy else obj.slice(off, lim)
        out.update(cols=[page.get_column(c).to_list() for c in cols], positions=list(range(off, off + page.height)), total=all_rows)
        return out
    hit = _eng_cache_get(obj, sel)
    if hit is None:
        lf = lf if lazy else obj.lazy()
        expr = _fl_compile(flt, kinds, _FBPolars(pl)) if flt else None
        q = lf.with_row_index('__dapscope_pos')
        na = 0
        if expr is not None:
            na = int(lf.select(expr.is_null().sum()).collect().item())
            q = q.filter(expr)
        if sort:
            by = _eng_sort_names(names, sort)
            keys = [pl.col(c).fill_nan(None) if kinds[c] == 'float' else pl.col(c) for c in by]  # NaN last, as pandas
            # polars' own stable argsort of the keys, then the positions in that order
            q = q.select(pl.col('__dapscope_pos').gather(pl.arg_sort_by(keys, descending=[bool(k.get('descending')) for k in sort],
                                                                         nulls_last=True, maintain_order=True)))
        order = q.select('__dapscope_pos').collect().to_series()
        hit = _eng_cache_put(obj, sel, _EngOrder(order, order.estimated_size()), na)
    else:
        out['cached'] = True
    pos = hit['order'].page(off, lim)
    if lazy:
        src = lf.select(cols).collect()
        got = [src.get_column(c)[pos].to_list() for c in cols] if len(pos) else [[] for c in cols]
    else:  # a gather of the page's rows, column by column (Series[positions]): nothing else is read
        got = [obj.get_column(c)[pos].to_list() for c in cols] if len(pos) else [[] for c in cols]
    out.update(cols=got, positions=pos.to_list(), total=int(hit['total']), na=hit['na'])
    return out


def _eng_sort_names(names, sort):
    cols = _sel_columns(_EngNames(names), [k['column'] for k in sort])
    if len(cols) != len(sort):
        raise _ProbeError('INVALID_ARGUMENT', 'sort names each column once')
    return [names[i] for i in cols]


class _EngNames(object):
    """Column names as select.py's _sel_columns reads them (df.columns)."""

    def __init__(self, names):
        self.columns = names


_ENGINE_PAGE.update(polars_df=_pl_page, polars_series=_pl_page, polars_lazy=_pl_page)
