# dapscope Python probe: data engines (polars, pyarrow, DuckDB, Spark,
# Dask), shared parts. Each engine's file computes a table's facts with the
# engine itself (its own aggregates, one query where it can) and hands them
# here as plain values; this file writes them into the pandas model
# (structure.columns, statistics.columns, preview), so every surface shows
# an engine's table as it shows a DataFrame. Only bounded results cross:
# aggregates, at most _SAMPLE numbers per numeric column (quantiles,
# histogram), five top values, the preview rows.

# ---------------------------------------------------------------- engines


def _engine_classify(obj):
    """The engine kind of obj, or None (modules are never imported: a value
    of an engine means its module is loaded)."""
    for mod, checks in _ENGINE_TYPES:
        if _mod(mod) is None:
            continue
        for prefix, name, kind in checks:
            if _is(obj, prefix, name):
                return kind
    return None


_ENGINE_TYPES = (
    ('polars', (('polars', 'DataFrame', 'polars_df'), ('polars', 'Series', 'polars_series'),
                ('polars', 'LazyFrame', 'polars_lazy'))),
    ('pyarrow', (('pyarrow', 'Table', 'arrow_table'), ('pyarrow', 'RecordBatch', 'arrow_batch'),
                 ('pyarrow', 'ChunkedArray', 'arrow_chunked'), ('pyarrow', 'Array', 'arrow_array'),
                 ('pyarrow', 'Dataset', 'arrow_dataset'))),
    ('duckdb', (('duckdb', 'DuckDBPyRelation', 'duckdb_rel'),)),
    ('pyspark', (('pyspark.sql', 'DataFrame', 'spark_df'),)),
    ('dask', (('dask.dataframe', 'DataFrame', 'dask_df'), ('dask.dataframe', 'Series', 'dask_series'),
              ('dask.array', 'Array', 'dask_array'))),
    ('ray.data', (('ray.data.dataset', 'Dataset', 'ray_dataset'),)),
)

# detected_type of each engine kind: the model's table types
_ENGINE_DETECTED = {'polars_df': 'dataframe', 'polars_series': 'series', 'polars_lazy': 'dataframe',
                    'arrow_table': 'dataframe', 'arrow_batch': 'dataframe', 'arrow_chunked': 'series',
                    'arrow_array': 'series', 'arrow_dataset': 'dataframe', 'duckdb_rel': 'dataframe',
                    'spark_df': 'dataframe', 'dask_df': 'dataframe', 'dask_series': 'series',
                    'dask_array': 'ndarray', 'ray_dataset': 'dataframe'}


def _inspect_engine(obj, kind, opts, B, res):
    res['detected_type'] = _ENGINE_DETECTED[kind]
    try:
        _ENGINE_INSPECT[kind](obj, opts, B, res)
    except _ProbeError:
        raise
    except Exception as e:
        res['warnings'].append('%s inspection failed: %s: %s' % (kind.split('_')[0], _short(type(e)), _cut(str(e), 200, _Trunc())))


class _EngCol(object):
    """One column's facts as an engine computed them. kind: int, float,
    bool, str, cat, datetime, other."""
    __slots__ = ('name', 'dtype', 'kind', 'nulls', 'agg', 'sample', 'top', 'categories', 'ordered', 'str_len', 'clues')

    def __init__(self, name, dtype, kind):
        self.name, self.dtype, self.kind = name, dtype, kind
        self.nulls, self.agg, self.sample, self.top = None, {}, None, None
        self.categories, self.ordered, self.str_len = None, None, None
        self.clues = False  # the engine's distinct counts are exact: repeated values and keys (_eng_clues)


def _eng_structure(res, nrows, cols, memory=None, estimated=True):
    st = res['structure'] = {'shape': [int(nrows), len(cols)] if nrows is not None else [None, len(cols)],
                             'column_count': len(cols)}
    out = []
    for c in cols:
        e = {'name': c.name, 'dtype': c.dtype}
        if c.nulls is not None:
            e['null_count'] = int(c.nulls)
        out.append(e)
    st['columns'] = out
    if memory is not None:
        st['memory_bytes'] = int(memory)
        if estimated:
            st['memory_estimated'] = True
    return st


def _eng_preview(res, names, head, tail, nrows, opts):
    """head/tail: lists of row tuples (tail None: none); index = position."""
    tr = _Trunc()
    pc = min(len(names), _PREVIEW_COLUMNS)
    pv = res['preview'] = {'columns': list(names[:pc])}
    if pc < len(names):
        res['warnings'].append('preview shows the first %d of %d columns' % (pc, len(names)))
    pv['head'] = [{'index': i, 'values': [_cell(x, 1, tr) for x in r[:pc]]} for i, r in enumerate(head)]
    if tail:
        start = nrows - len(tail)
        pv['tail'] = [{'index': start + i, 'values': [_cell(x, 1, tr) for x in r[:pc]]} for i, r in enumerate(tail)]
        pv['omitted_rows'] = start - len(head)
    if tr.hit:
        pv['is_truncated'] = True


def _eng_tail_n(nrows, opts):
    rows = int(opts.get('max_preview_rows', 5))
    return rows, (max(1, rows // 2) if nrows is not None and nrows > rows else 0)


def _eng_col_stats(c, n):
    """statistics of one column, the fields pandas' _series_stats gives
    (with the clues where the engine's counts allow: _eng_clues)."""
    r = _eng_col_facts(c, n)
    if c.clues and n:
        _eng_clues(c, n, r)
    return r


# the numpy dtype kind pandas' key clue reads (clues.py's _key_reason)
_ENG_KEY_KIND = {'int': 'i', 'float': 'f', 'str': 'O', 'cat': 'O', 'bool': 'b', 'datetime': 'M'}


def _eng_clues(c, n, r):
    """A column's repeated-value count (non-null values equal to an
    earlier one, as pandas' duplicated(): from the engine's exact distinct
    count, any size) and key clue (clues.py), where pandas gives them:
    numbers (infinities are values, NaN not), strings, categoricals,
    booleans, datetimes (repeats only: pandas gives them no distinct)."""
    a = c.agg
    nonnull = n - int(c.nulls or 0)
    if c.kind in ('int', 'float'):
        if a.get('distinct') is None or a.get('finite') is None:
            return
        rep = int(a['finite']) + int(a.get('inf') or 0) - int(a['distinct'])
    elif c.kind in ('str', 'cat', 'bool'):
        if r.get('distinct') is None or r.get('distinct_estimated'):
            return
        rep = nonnull - int(r['distinct'])
    elif c.kind == 'datetime':
        if a.get('dt_distinct') is None:
            return
        rep = nonnull - int(a['dt_distinct'])
    else:
        return
    _count(r, 'repeated', rep)
    _key_clue(r, c.name, _ENG_KEY_KIND[c.kind])


class _EngNotComputed(Exception):
    """A count an engine could not finish, with the words why (the
    budget stopped its compute)."""


def _eng_duplicate_rows(stats, n, cols, B, count, free=False):
    """statistics.duplicate_rows (rows equal to an earlier row, as
    pandas' duplicated().sum()) by the engine's own grouping (count: a
    function giving the number of distinct rows), within pandas' bound
    (_EXACT_LIMIT cells past _DUP_ROWS rows) and the time budget; 0 at
    once when a column is all distinct and non-null; else
    duplicate_rows_not_computed says why. free: the count is in hand (the
    engine ran it with its other aggregates): exact, so kept at any size."""
    if n == 0 or not cols:
        return
    for col in stats['columns']:
        if col.get('distinct') == n and not col.get('distinct_estimated') and not col.get('nan_count') and \
                not any(c.name == col.get('name') and c.nulls for c in cols):
            stats['duplicate_rows'] = 0
            return
    if n > _DUP_ROWS and n * len(cols) > _EXACT_LIMIT and not free:  # pandas' bound (its row hashes stop there too)
        stats['duplicate_rows_not_computed'] = _not_computed(n)
        return
    if not free and not B.ok('duplicate_rows'):
        stats['duplicate_rows_not_computed'] = 'not computed: time budget'
        return
    try:
        stats['duplicate_rows'] = n - int(count())
    except _EngNotComputed as e:
        stats['duplicate_rows_not_computed'] = 'not computed: %s' % e
    except Exception as e:
        stats['duplicate_rows_not_computed'] = 'not computed: %s' % _cut(_short(type(e)), 80, _Trunc())


def _eng_col_facts(c, n):
    r = {'name': c.name}
    a = c.agg
    if n == 0:
        return r
    if c.kind in ('int', 'float'):
        _count(r, 'nan_count', a.get('nan', 0))
        _count(r, 'inf_count', a.get('inf', 0))
        if a.get('min') is None:
            return r
        if c.kind == 'float':
            r['min'], r['max'] = _num(a['min'], _STAT), _num(a['max'], _STAT)
        else:
            r['min'], r['max'] = _exact(a['min']), _exact(a['max'])
        r['mean'] = _num(a['mean'], _STAT)
        if a.get('std') is not None:
            r['std'], r['ddof'] = _num(a['std'], _STAT), 1
        _count(r, 'zeros', a.get('zeros', 0))
        if c.sample:
            _eng_quantiles(c.sample, float(a['min']), float(a['max']), int(a['finite']), r)
        if a.get('pct'):  # an engine's approximate percentiles (Spark's percentile_approx)
            r['quantiles'] = dict(('p%d' % p, _num(v, _STAT)) for p, v in zip((5, 25, 50, 75, 95), a['pct']))
            r['sampled'] = True
        if a.get('hist'):  # bins counted by the engine
            r['histogram'] = a['hist']
        if a.get('distinct') is not None:
            r['distinct'] = int(a['distinct'])
            if a.get('distinct_estimated'):
                r['distinct_estimated'] = True
        return r
    if c.kind == 'bool':
        t = int(a.get('true', 0))
        r['true_count'] = t
        r['true_rate'] = _num(float(t) / n, _STAT)
        f = n - t - int(c.nulls or 0)
        r['top_values'] = sorted([x for x in ({'value': True, 'count': t}, {'value': False, 'count': f}) if x['count']],
                                 key=lambda x: -x['count'])
        r['distinct'] = int(t > 0) + int(f > 0)
        return r
    if c.kind == 'cat':
        if c.categories is not None:
            r['categories'] = int(c.categories)
            r['ordered'] = bool(c.ordered)
    if c.kind == 'datetime':
        for k in ('first', 'last', 'min', 'max'):
            if a.get(k) is not None:
                r[k] = _cell(a[k], 1, _Trunc())
        return r
    if c.kind in ('str', 'cat') and a.get('distinct') is not None:
        r['distinct'] = int(a['distinct'])
        if a.get('distinct_estimated'):
            r['distinct_estimated'] = True
    if c.top is not None:
        r['top_values'] = [{'value': _cell(v, 1, _Trunc()), 'count': int(k)} for v, k in c.top[:5]]
    if c.str_len is not None and c.str_len[0] is not None:
        r['str_len'] = {'min': int(c.str_len[0]), 'max': int(c.str_len[1]), 'mean': _num(c.str_len[2], _STAT)}
    return r


def _eng_quantiles(sample, lo, hi, total, r):
    """Quantiles and the 10-bin histogram from an evenly spaced sample of
    the finite values (all of them up to _SAMPLE): pandas' rules, in plain
    Python (an engine's program need not have numpy)."""
    import bisect
    ss = sorted(float(x) for x in sample)
    m = len(ss)
    if m < total:
        r['sampled'] = True
        r['sample_size'] = m
    qs = {}
    for p in (5, 25, 50, 75, 95):  # numpy's default (linear) percentile
        pos = p / 100.0 * (m - 1)
        a = int(math.floor(pos))
        b = min(a + 1, m - 1)
        qs['p%d' % p] = _num(ss[a] + (ss[b] - ss[a]) * (pos - a), _STAT)
    r['quantiles'] = qs
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    step = (hi - lo) / 10.0
    if step - step == 0:
        cuts = [0] + [bisect.bisect_left(ss, i * step + lo) for i in range(1, 10)] + [m]  # numpy.linspace's edges
    else:  # hi - lo overflows float64: each end weighted (clues.py's _histogram)
        step = hi / 10.0 - lo / 10.0
        cuts = [0] + [bisect.bisect_left(ss, lo * (1.0 - i / 10.0) + hi * (i / 10.0)) for i in range(1, 10)] + [m]
    counts = [cuts[i + 1] - cuts[i] for i in range(10)]
    if m < total:
        counts = [int(math.floor(c * total / m + 0.5)) for c in counts]
    r['histogram'] = {'start': _num(lo, _STAT), 'width': _num(step, _STAT), 'counts': counts}


def _eng_statistics(res, cols, n, B, opts, note=None, distinct_rows=None, rows_free=False):
    """distinct_rows: a function giving the table's distinct row count
    (the engine's grouping) for duplicate_rows (_eng_duplicate_rows;
    rows_free: it is already counted)."""
    if not opts.get('include_statistics', True):
        return
    stats = res['statistics'] = {'columns': []}
    for k, c in enumerate(cols[:_STAT_COLUMNS]):
        if not c.agg and c.top is None and c.kind not in ('bool',):
            continue
        stats['columns'].append(_eng_col_stats(c, n))
    if len(cols) > _STAT_COLUMNS:
        res['warnings'].append('statistics cover the first %d of %d columns' % (_STAT_COLUMNS, len(cols)))
    if distinct_rows is not None:
        _eng_duplicate_rows(stats, n, cols, B, distinct_rows, rows_free)
    if note:
        stats['computed'] = note


def _eng_sample_positions(size):
    """The positions pandas samples: floor(j * size / n), j < n."""
    n = min(size, _SAMPLE)
    return [j * size // n for j in range(n)]


def _eng_engine(res, **facts):
    """structure.engine: what the engine says of the value (plan,
    partitions, lazy, what ran)."""
    e = res['structure'].setdefault('engine', {})
    for k, v in facts.items():
        if v is not None:
            e[k] = v


def _eng_single(res):
    """A one-column table's facts as a Series' (structure.length, dtype,
    series_name; statistics of that column at the top)."""
    st = res['structure']
    c = st['columns'][0]
    st['length'] = st['shape'][0]
    st['shape'] = [st['shape'][0]]
    st['dtype'] = c['dtype']
    st.pop('column_count', None)
    if c['name'] not in ('', None):
        st['series_name'] = c['name']
    stats = res.get('statistics')
    if stats and stats.get('columns'):
        one = stats['columns'][0]
        one.pop('name', None)
        one['count'] = st['length']
        comp = stats.get('computed')
        res['statistics'] = one
        if comp:
            one['computed'] = comp


_ENGINE_INSPECT = {}


def _eng_sum(obj, kind, out):
    """A one-line summary's fields (summaries.py), from what the engine
    knows without running anything: a table in memory gives its shape and
    nulls (kept by polars and Arrow), a lazy one its columns only."""
    out['kind'] = _ENGINE_DETECTED[kind]
    if kind in ('polars_df', 'arrow_table', 'arrow_batch'):
        out['shape'] = [int(x) for x in obj.shape]
        if kind == 'polars_df':
            nulls = list(zip(obj.columns, obj.null_count().row(0)))
            out['memory'] = int(obj.estimated_size())
        else:
            nulls = [(f.name, obj.column(i).null_count) for i, f in enumerate(obj.schema)]
            out['memory'] = int(obj.nbytes)
        cols = sorted([(str(c), int(n)) for c, n in nulls if n], key=lambda x: -x[1])
        out['nulls'] = sum(n for _, n in cols)
        out['null_columns'] = cols[:3]
        out['null_column_count'] = len(cols)
    elif kind in ('polars_series', 'arrow_chunked', 'arrow_array'):
        out['shape'] = [len(obj)]
        out['dtype'] = str(obj.dtype if kind == 'polars_series' else obj.type)
        out['nulls'] = int(obj.null_count()) if kind == 'polars_series' else int(obj.null_count)
    elif kind == 'dask_array':
        out['shape'] = [int(x) if x == x else -1 for x in obj.shape]
        out['dtype'] = str(obj.dtype)
    else:
        out['kind'] = 'engine_lazy'
        if kind == 'polars_lazy':
            n, what = len(obj.collect_schema()), 'lazy, not collected'
        elif kind == 'arrow_dataset':
            n, what = len(obj.schema), 'dataset, not read'
        elif kind == 'duckdb_rel':
            n, what = len(obj.columns), 'DuckDB relation, not run'
        elif kind == 'spark_df':
            n, what = len(obj.schema.fields), 'Spark, not run'
        elif kind == 'ray_dataset':
            sch = _ray_schema(obj)
            rows = obj._meta_count()
            what = 'Ray Dataset%s, not executed' % ('' if rows is None else ' of %d rows' % rows)
            if sch is None:
                out['value'] = 'columns not known · ' + what
                return
            n = len(sch[0])
        else:
            n, what = len(obj.columns) if kind == 'dask_df' else 1, '%d partitions, not computed' % obj.npartitions
        out['value'] = '%d column%s · %s' % (n, '' if n == 1 else 's', what)
