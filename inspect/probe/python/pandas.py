# dapscope Python probe: pandas DataFrames, Series and Indexes (structure,
# nulls, memory, duplicate rows, preview rows, per-column statistics).

# ---------------------------------------------------------------- pandas

def _null_count(np, s, sums=None):
    """The nulls of a column (sums: a float column's values and their sum,
    kept for its statistics when the values are dense)."""
    dt = s.dtype
    kind = getattr(dt, 'kind', 'O')
    if isinstance(dt, np.dtype) and kind in 'mM':
        return int(np.count_nonzero(np.isnat(s.to_numpy())))
    v = s._values
    codes = getattr(v, 'codes', None)  # a Categorical: missing is code -1
    if isinstance(codes, np.ndarray):
        return int(np.count_nonzero(codes < 0))
    if not hasattr(dt, 'na_value') and kind in 'iub':
        return 0
    if not hasattr(dt, 'na_value') and kind == 'f' and np is not None:
        v = s.to_numpy()
        tot = np.add.reduce(v, dtype='float64')
        if sums is not None and v.flags.c_contiguous:
            sums[id(s)] = (v, tot)
        if math.isfinite(tot):  # no NaN/inf: one reduction, no temporary
            return 0
        return int(np.count_nonzero(np.isnan(v)))
    if type(v) is np.ndarray:  # object values: one isna, no Series built
        return int(np.count_nonzero(_mod('pandas').isna(v)))
    return int(s.isna().sum())


def _label(c):
    if isinstance(c, str):
        return c, None
    if isinstance(c, tuple):
        return ' / '.join(str(x) for x in c), [_cell(x, 1, _Trunc()) for x in c]
    return str(c), _cell(c, 1, _Trunc())


def _index_info(pd, idx, B, n_budget_label):
    info = {'type': _short(type(idx)), 'length': int(len(idx))}
    try:
        nl = int(getattr(idx, 'nlevels', 1))
        if nl > 1:
            info['levels'] = nl
            info['names'] = [_cell(x, 1, _Trunc()) for x in idx.names]
        elif idx.name is not None:
            info['name'] = _cell(idx.name, 1, _Trunc())
        info['dtype'] = str(idx.dtype)
        if _is(idx, 'pandas', 'RangeIndex'):
            info['start'] = int(idx.start)
            info['stop'] = int(idx.stop)
            info['step'] = int(idx.step)  # unique by construction: no is_unique
        elif B.ok(n_budget_label):
            info['is_unique'] = bool(idx.is_unique)
            if not info['is_unique'] and (len(idx) <= _DUP_ROWS or B.ok(n_budget_label)):
                info['repeated'] = int(idx.duplicated().sum())  # MultiIndex: whole tuples
        if len(idx) and not _is(idx, 'pandas', 'RangeIndex'):  # a RangeIndex's ends are start and stop
            info['first'] = _cell(idx[0], 1, _Trunc())
            info['last'] = _cell(idx[-1], 1, _Trunc())
    except Exception:
        pass
    return info


def _rows(frame_cols, idx, rows_slice, tr):
    """Cells of a row slice: frame_cols = list of 1-D value lists."""
    out = []
    idx_vals = idx.tolist()
    for r in range(len(idx_vals)):
        out.append({'index': _cell(idx_vals[r], 1, tr), 'values': [_cell(col[r], 1, tr) for col in frame_cols]})
    return out


def _series_list(df):
    """The frame's columns as Series, by position (duplicate labels are
    fine). DataFrame._ixs is what iloc ends in, without its validation
    (~7x faster); it does not fill the frame's item cache."""
    n = int(df.shape[1])
    ixs = getattr(df, '_ixs', None)
    if ixs is not None:
        try:
            return [ixs(i, axis=1) for i in range(n)]
        except Exception:
            pass
    return [df.iloc[:, i] for i in range(n)]


def _column(df, i):
    """Column i of df as a Series (see _series_list)."""
    try:
        return df._ixs(i, axis=1)
    except Exception:
        return df.iloc[:, i]


def _cells(s, a, b):
    """Series.iloc[a:b].tolist() without building the slice Series (a
    categorical's cells from its codes: no take over its categories)."""
    v = s._values
    codes = getattr(v, 'codes', None)
    if codes is not None and getattr(getattr(v, 'dtype', None), 'name', '') == 'category':
        try:
            cats = v.categories
            return [cats[c] if c >= 0 else float('nan') for c in codes[a:b].tolist()]
        except Exception:
            pass
    try:
        return s._values[a:b].tolist()
    except Exception:
        return s.iloc[a:b].tolist()


def _take_values(v, pos):
    """v[pos] for a numpy or extension array."""
    try:
        return v.take(pos)
    except Exception:
        return _mod('pandas').Series(v).iloc[pos]._values


def _page_json(np, v, tr):
    """The cells of a 1-D numpy or extension array as JSON texts, equal to
    json.dumps of what _cell gives for each (numbers are formatted once,
    not rounded to a float and printed again)."""
    if type(v) is np.ndarray and v.dtype.kind in 'iubf':
        k = v.dtype.kind
        vals = v.tolist()
        if k == 'b':
            return ['true' if x else 'false' for x in vals]
        if k != 'f':
            return list(map(str, vals))
        dumps = json.dumps
        if getattr(_PREC, 'full', False):
            return [repr(x) if x - x == 0 else dumps(_num(x)) for x in vals]
        d = getattr(_PREC, 'cell', _CELL)
        big, fmt = 10.0 ** (d - 1), '%%.%dg' % d
        out = [fmt % x if -big < x < big else dumps(_num(x, d)) for x in vals]
        # %g drops ".0" where repr keeps it (5.0, not 5): floats stay floats
        return [t if '.' in t or 'e' in t or 'n' in t else t + '.0' for t in out]
    enc, dumps = json.encoder.encode_basestring, json.dumps
    return [enc(c) if type(c) is str else dumps(c, ensure_ascii=False, allow_nan=False, default=str)
            for c in (_cell(x, 1, tr) for x in v.tolist())]


_DTYPE_STR = {}


def _dtype_str(dt):
    """str(dtype), remembered (numpy builds the name anew each time)."""
    try:
        return _DTYPE_STR[dt]
    except KeyError:
        if len(_DTYPE_STR) < 256:
            _DTYPE_STR[dt] = str(dt)
        return str(dt)
    except TypeError:  # an unhashable extension dtype
        return str(dt)


def _col_values(df, i):
    """Column i's values (numpy or extension array) without a Series."""
    try:
        return df._mgr.iget_values(i)
    except Exception:
        return _column(df, i)._values


def _index_cells(np, index, pos, tr):
    """The index labels at positions pos (a RangeIndex by arithmetic); None
    when they are the positions themselves (0, 1, 2, …)."""
    r = getattr(index, '_range', None)
    if type(r) is range:
        if r.start == 0 and r.step == 1:
            return None
        return (pos * r.step + r.start).tolist()
    return [_cell(x, 1, tr) for x in index[pos].tolist()]


def _values_nbytes(v, deep):
    """Bytes of an array of values (numpy or extension); deep adds the
    Python objects of object data (and of a categorical's categories)."""
    n = int(v.nbytes)
    if deep:
        cats = getattr(getattr(v, 'dtype', None), 'categories', None)
        objs = cats._values if cats is not None else v
        if getattr(getattr(objs, 'dtype', None), 'kind', '') == 'O':
            try:
                n += int(_mod('pandas')._libs.lib.memory_usage_of_objects(_mod('numpy').asarray(objs, dtype=object)))
            except Exception:
                pass
    return n


def _index_nbytes(idx, deep):
    """An index's bytes without its lookup table: Index.memory_usage adds
    the hash table once something built it (a .loc, a join), so the same
    frame read 316.5 KB, then 445.5 KB one step later."""
    if _is(idx, 'pandas', 'RangeIndex'):
        return int(idx.nbytes)
    levels = getattr(idx, 'levels', None)
    if levels is not None:  # MultiIndex: levels and codes
        return sum(_values_nbytes(l._values, deep) for l in levels) + sum(int(c.nbytes) for c in idx.codes)
    return _values_nbytes(idx._values, deep)


def _memory(df, series, deep):
    """df.memory_usage(index=True, deep=deep).sum() without the index's
    lookup table (stable for unchanged data) and without building the
    per-column Series (series: the columns, or None)."""
    n = df.shape[1]
    cols = (s._values for s in series) if series is not None else (_col_values(df, i) for i in range(n))
    return _index_nbytes(df.index, deep) + sum(_values_nbytes(v, deep) for v in cols)


def _duplicate_rows(pd, np, df):
    """df.duplicated().sum(), exact: equal rows have equal row hashes, so
    all-distinct hashes mean no duplicates; only otherwise pandas' own
    duplicated() runs."""
    try:
        h = pd.util.hash_pandas_object(df, index=False).to_numpy()
        if int(np.unique(h).shape[0]) == int(h.shape[0]):
            return 0
    except Exception:
        pass
    return int(df.duplicated().sum())


def _inspect_dataframe(df, opts, B, res):
    pd, np = _mod('pandas'), _mod('numpy')
    nrows, ncols = (int(x) for x in df.shape)
    st = res['structure'] = {'shape': [nrows, ncols], 'column_count': ncols}
    cols = df.columns
    nl = int(getattr(cols, 'nlevels', 1))
    if nl > 1:
        st['column_levels'] = nl
        st['column_level_names'] = [_cell(x, 1, _Trunc()) for x in cols.names]
    dup = None
    try:
        if not cols.is_unique:
            dup = cols.duplicated(keep=False).tolist()
            st['duplicate_columns'] = True
    except Exception:
        pass
    series = _series_list(df)
    whole = opts.get('include_statistics', True) and not _stats_chosen(opts.get('stats_of'))
    pre = _block_pass(np, df, series, B, lambda i: whole and i < _STAT_COLUMNS and 'statistics.columns[%d]' % i)
    dtypes = [_dtype_str(x.dtype) for x in series]  # df.dtypes' names, no Series built
    labels = cols.tolist()
    columns = []
    for i in range(ncols):
        name, key = _label(labels[i])
        c = {'name': name, 'dtype': dtypes[i]}
        if key is not None:
            c['key'] = key
        if dup is not None and dup[i]:
            c['duplicate'] = True
        columns.append(c)
    st['columns'] = columns
    st['index'] = _index_info(pd, df.index, B, 'index.is_unique')
    deep = bool(opts.get('deep_memory'))
    try:
        st['memory_bytes'] = _memory(df, series, deep)
        if deep:
            st['memory_deep'] = True
        elif any(d == 'object' for d in dtypes):
            st['memory_estimated'] = True
    except Exception:
        pass
    # null counts: one vectorized pass (a float column's sum kept for its mean)
    sums = {}
    for i, c in enumerate(columns):
        if not B.ok('null_counts'):
            break
        try:
            k = pre[i][0] if i in pre else _null_count(np, series[i], sums)
            c['null_count'] = k
        except Exception:
            pass
    # preview
    pc = min(ncols, _PREVIEW_COLUMNS)
    rows = int(opts.get('max_preview_rows', 5))
    tail_n = max(1, rows // 2) if nrows > rows else 0
    tr = _Trunc()
    pv = res['preview'] = {'columns': [c['name'] for c in columns[:pc]]}
    if pc < ncols:
        res['warnings'].append('preview shows the first %d of %d columns' % (pc, ncols))
    pv['head'] = _rows([_cells(series[i], 0, rows) for i in range(pc)], df.index[:rows], None, tr)
    if tail_n:
        tail_start = max(rows, nrows - tail_n)
        pv['tail'] = _rows([_cells(series[i], tail_start, nrows) for i in range(pc)], df.index[tail_start:], None, tr)
        pv['omitted_rows'] = tail_start - rows
    if tr.hit:
        pv['is_truncated'] = True
    # statistics, cheapest columns first
    if not opts.get('include_statistics', True):
        return
    stats = {'columns': []}
    res['statistics'] = stats
    frame, scols, srows, col = _stats_scope(df, opts.get('stats_of'), np, B, stats, series)
    claimed = _unique_index_names(df, st['index'])
    distinct_cols = False
    for k, i in enumerate(scols[:_STAT_COLUMNS]):
        if not B.ok('statistics.columns[%d:]' % k):
            break
        cst = {'name': columns[i]['name']}
        try:
            s = col(i)
            if frame is df and pre.get(i, (0, None))[1] is not None:
                cst.update(pre[i][1])  # computed with the column dense (_block_pass)
            else:
                _series_stats(pd, np, s, B, opts, cst, 'statistics.columns[%d]' % k, sums.get(id(s)))
            _column_clues(pd, np, s, cst, srows, B, columns[i]['name'] in claimed)
            if cst.get('distinct') == srows and not cst.get('distinct_estimated') and not cst.get('nan_count') \
                    and not columns[i].get('null_count'):
                distinct_cols = True
        except Exception as e:
            cst['skipped'] = 'failed: %s: %s' % (_short(type(e)), _cut(str(e), 100, _Trunc()))
        cst.pop('count', None)
        stats['columns'].append(cst)
    if len(scols) > _STAT_COLUMNS:
        res['warnings'].append('statistics cover the first %d of %d columns' % (_STAT_COLUMNS, len(scols)))
    if srows > 0:
        try:
            view = frame if len(scols) == ncols else frame.iloc[:, scols]
            # the most distinct columns first (narrowing, clues.py)
            dist = [c.get('distinct', -1) for c in stats['columns']]
            order = sorted(range(len(dist)), key=lambda j: -dist[j])
            _duplicate_rows_bounded(pd, np, view, distinct_cols and len(scols) <= _STAT_COLUMNS, B, stats, order)
        except Exception:
            pass


def _unique_index_names(df, info):
    """The names a frame's index claims unique: a single-level index's
    name when it is unique (a RangeIndex, is_unique, or a frame whose flags
    forbid duplicate labels). A column of that name looks like a key
    (clues.py: 'unique index'): the frame is indexed by it."""
    name = info.get('name')
    if name is None or info.get('levels'):
        return ()
    forbid = getattr(getattr(df, 'flags', None), 'allows_duplicate_labels', True) is False
    if forbid or info.get('is_unique') or 'step' in info:
        return (name,)
    return ()


def _column_clues(pd, np, s, cst, rows, B, claimed=False):
    """A column's key clue (clues.py): a key-named column sampled past the
    bound gets its exact repeated-value count while the budget allows;
    claimed: a unique index of the frame has the column's name."""
    kind = getattr(s.dtype, 'kind', 'O')
    if _dtype_str(s.dtype) in ('string', 'str', 'object'):
        kind = 'O'
    if 'repeated_not_computed' in cst and _key_reason(cst['name'], 'O', 0, None) == 'name' and B.ok('statistics.repeated'):
        try:
            v = s.dropna().to_numpy()
            r = _repeated_values(np, v, B, bound=_EXACT_LIMIT)
            if r is not None:
                _count(cst, 'repeated', r)
                cst['distinct'] = int(len(v)) - r
                cst.pop('distinct_estimated', None)
                cst.pop('repeated_not_computed', None)
        except Exception:
            pass
    _key_clue(cst, cst['name'], kind, claimed)


def _stats_scope(df, sel, np, B, stats, series):
    """What a frame's statistics cover: the whole frame, or a selection's
    chosen columns and filtered rows (the selection's own helpers,
    select.py), labelled in stats. Returns the frame the rows come from,
    the column positions, the row count and a column getter."""
    nrows, ncols = (int(x) for x in df.shape)
    if not _stats_chosen(sel):
        return df, list(range(ncols)), nrows, lambda i: series[i]
    scols = _sel_columns(df, sel.get('columns')) if sel.get('columns') else list(range(ncols))
    frame, srows = df, nrows
    if sel.get('filter'):
        order, _, srows, na = _sel_order(df, {'filter': sel['filter']}, np, B)
        frame = df.take(order) if order is not None else df
        stats['rows'] = 'filtered, {:,} of {:,}'.format(int(srows), nrows)
        if na:
            stats['rows'] += ' ({:,} unknown: no match)'.format(int(na))
    if sel.get('columns'):
        stats['column_scope'] = 'chosen, {:,} of {:,}'.format(len(scols), ncols)
    stats['count'] = int(srows)  # the rows the statistics (duplicate_rows too) are of
    if frame is df:
        return df, scols, srows, lambda i: series[i]
    return frame, scols, srows, lambda i: _column(frame, i)


def _stats_chosen(sel):
    """Whether a selection narrows a frame's statistics."""
    return bool(sel and (sel.get('columns') or sel.get('filter')))


def _inspect_series(s, opts, B, res):
    pd, np = _mod('pandas'), _mod('numpy')
    n = int(len(s))
    st = res['structure'] = {'shape': [n], 'length': n, 'dtype': str(s.dtype)}
    if s.name is not None:
        st['series_name'] = _cell(s.name, 1, _Trunc())
    st['index'] = _index_info(pd, s.index, B, 'index.is_unique')
    deep = bool(opts.get('deep_memory'))
    try:
        st['memory_bytes'] = _index_nbytes(s.index, deep) + _values_nbytes(s._values, deep)
        if deep:
            st['memory_deep'] = True
        elif str(s.dtype) == 'object':
            st['memory_estimated'] = True
    except Exception:
        pass
    k = int(s.isna().sum())
    st['columns'] = [{'name': str(s.name) if s.name is not None else '', 'dtype': str(s.dtype), 'null_count': k}]
    rows = int(opts.get('max_preview_rows', 5))
    tail_n = max(1, rows // 2) if n > rows else 0
    tr = _Trunc()
    pv = res['preview'] = {'columns': [str(s.name) if s.name is not None else 'value']}
    head = s.iloc[:rows]
    pv['head'] = _rows([head.tolist()], head.index, None, tr)
    if tail_n:
        start = max(rows, n - tail_n)
        tail = s.iloc[start:]
        pv['tail'] = _rows([tail.tolist()], tail.index, None, tr)
        pv['omitted_rows'] = start - rows
    if tr.hit:
        pv['is_truncated'] = True
    if opts.get('include_statistics', True) and B.ok('statistics'):
        stats = res['statistics'] = {}
        _series_stats(pd, np, s, B, opts, stats, 'statistics')
        kind = 'O' if str(s.dtype) in ('string', 'str', 'object') else getattr(s.dtype, 'kind', 'O')
        _key_clue(stats, s.name if s.name is not None else '', kind)


def _inspect_index(idx, opts, B, res):
    n = int(len(idx))
    res['structure'] = {'shape': [n], 'length': n, 'dtype': str(idx.dtype), 'index': _index_info(_mod('pandas'), idx, B, 'is_unique')}
    items = int(opts.get('max_preview_items', 10))
    tr = _Trunc()
    res['preview'] = {'items': [{'index': i, 'value': _cell(x, 1, tr)} for i, x in enumerate(idx[:items].tolist())]}
    if tr.hit or n > items:
        res['preview']['is_truncated'] = True
