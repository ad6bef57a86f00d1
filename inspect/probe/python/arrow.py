# dapscope Python probe: pyarrow Tables, RecordBatches, ChunkedArrays,
# Arrays and Datasets, read with pyarrow.compute: schema, chunks, nulls,
# buffers' size (free: Arrow keeps them); min/max, mean, std (ddof=1),
# zeros, NaN/inf, distinct and top values through pyarrow.compute kernels
# (repeated values and keys from the exact counts, duplicate rows from the
# columns' dictionary codes folded into one key: engines.py's _eng_clues);
# numbers for quantiles and the histogram gathered evenly spaced (at most
# _SAMPLE). A Dataset gives its schema; its fragments and rows are read
# only when the caller asks (the `compute` option). Pages: filter (the
# grammar compiled to a pyarrow.compute Expression), sort_indices (stable,
# nulls last), take.

# ---------------------------------------------------------------- pyarrow


def _pa_kind(pa, t):
    T = pa.types
    if T.is_integer(t):
        return 'int'
    if T.is_floating(t):
        return 'float'
    if T.is_boolean(t):
        return 'bool'
    if T.is_string(t) or T.is_large_string(t) or getattr(T, 'is_string_view', lambda x: False)(t):
        return 'str'
    if T.is_dictionary(t):
        return 'cat'
    if T.is_timestamp(t) or T.is_date(t):
        return 'datetime'
    return 'other'


def _pa_scalar(x):
    try:
        return x.as_py()
    except Exception:
        return None


def _pa_col_facts(pa, pc, c, col, stats):
    """Facts of one column (a ChunkedArray) through pyarrow.compute."""
    c.nulls = int(col.null_count)
    if not stats or len(col) == 0:
        return
    a = c.agg
    if c.kind in ('int', 'float'):
        fin = col
        if c.kind == 'float':
            a['nan'] = _pa_scalar(pc.sum(pc.is_nan(col))) or 0
            a['inf'] = _pa_scalar(pc.sum(pc.is_inf(col))) or 0
            fin = pc.filter(col, pc.is_finite(col))
        else:
            fin = pc.drop_null(col)
        a['finite'] = len(fin)
        if not len(fin):
            return
        mm = pc.min_max(fin)
        a['min'], a['max'] = _pa_scalar(mm['min']), _pa_scalar(mm['max'])
        a['mean'] = _pa_scalar(pc.mean(fin))
        a['std'] = _pa_scalar(pc.stddev(fin, ddof=1))
        a['zeros'] = _pa_scalar(pc.sum(pc.equal(fin, 0))) or 0
        # -0.0 + 0.0 is 0.0: one value, as pandas' nunique
        a['distinct'] = _pa_scalar(pc.count_distinct(pc.add(fin, pa.scalar(0.0, fin.type)) if c.kind == 'float' else fin))
        if c.kind == 'float' and a['inf']:
            a['distinct'] += int(_pa_scalar(pc.count_distinct(pc.filter(col, pc.is_inf(col)))))
        s = fin if len(fin) <= _SAMPLE else fin.take(pa.array(_eng_sample_positions(len(fin))))
        c.sample = pc.cast(s, pa.float64()).to_pylist()
    elif c.kind == 'bool':
        a['true'] = _pa_scalar(pc.sum(col)) or 0
    elif c.kind == 'datetime':
        nn = pc.drop_null(col)
        if len(nn):
            mm = pc.min_max(nn)
            a['min'], a['max'] = _pa_scalar(mm['min']), _pa_scalar(mm['max'])
            a['first'], a['last'] = nn[0].as_py(), nn[len(nn) - 1].as_py()
            a['dt_distinct'] = _pa_scalar(pc.count_distinct(nn))
    elif c.kind in ('str', 'cat', 'other'):
        nn = pc.drop_null(col)
        try:
            vc = pc.value_counts(nn)  # first-seen order: a stable sort by count keeps ties so
            counts = vc.field('counts').to_pylist()
            vals = vc.field('values')
            top = sorted(range(len(counts)), key=lambda i: -counts[i])[:5]  # stable
            if c.kind == 'cat':
                c.ordered = bool(col.type.ordered)
                c.categories = len(vc)
                vals = vals.dictionary_decode() if hasattr(vals, 'dictionary_decode') else vals
                # ties in category order (the dictionary's), as pandas
                cats = [str(x) for x in vals.to_pylist()]
                top = sorted(range(len(vc)), key=lambda i: (-int(counts[i]), cats[i]))[:5]
            c.top = [(vals[int(i)].as_py(), int(counts[i])) for i in top]
            if c.kind in ('str', 'cat'):
                a['distinct'] = len(vc)
        except Exception:
            pass
        if c.kind == 'str' and len(nn):
            ln = pc.utf8_length(nn)
            mm = pc.min_max(ln)
            c.str_len = (_pa_scalar(mm['min']), _pa_scalar(mm['max']), _pa_scalar(pc.mean(ln)))


def _pa_table(obj, kind):
    pa = _mod('pyarrow')
    if kind in ('arrow_chunked', 'arrow_array'):
        return pa.table({'value': obj})
    return obj


def _inspect_arrow_table(obj, opts, B, res, kind='arrow_table'):
    pa, pc = _mod('pyarrow'), _mod('pyarrow.compute')
    t = _pa_table(obj, kind)
    stats = bool(opts.get('include_statistics', True))
    cols = []
    for i, f in enumerate(t.schema):
        c = _EngCol(str(f.name), str(f.type), _pa_kind(pa, f.type))
        c.clues = True  # count_distinct and value_counts are exact: repeated values and keys
        col = t.column(i)
        if isinstance(col, pa.Array):
            col = pa.chunked_array([col])
        on = stats and i < _STAT_COLUMNS and B.ok('statistics.columns[%d:]' % i)
        _pa_col_facts(pa, pc, c, col, on)
        cols.append(c)
    n = int(t.num_rows)
    try:
        mem = int(t.get_total_buffer_size())
    except Exception:
        mem = int(t.nbytes)
    _eng_structure(res, n, cols, mem, estimated=False)
    rows, tail_n = _eng_tail_n(n, opts)
    names = [c.name for c in cols]
    pcn = min(len(names), _PREVIEW_COLUMNS)
    head = [tuple(r.values())[:pcn] for r in t.slice(0, rows).to_pylist()]
    tail = [tuple(r.values())[:pcn] for r in t.slice(n - tail_n, tail_n).to_pylist()] if tail_n else None
    _eng_preview(res, names, head, tail, n, opts)
    _eng_statistics(res, cols, n, B, opts, distinct_rows=None if kind in ('arrow_chunked', 'arrow_array') else
                    lambda: _pa_distinct_rows(pa, t))
    chunks = None
    try:
        chunks = int(obj.num_chunks) if kind == 'arrow_chunked' else (int(t.column(0).num_chunks) if kind == 'arrow_table' and t.num_columns else None)
    except Exception:
        pass
    _eng_engine(res, name='pyarrow', chunks=chunks)
    if kind in ('arrow_chunked', 'arrow_array'):
        _eng_single(res)


def _pa_codes(pa, pc, col):
    """A column as int64 codes (equal values, nulls and NaN each one code;
    -0.0 as 0.0, as pandas) and how many codes there are: one
    dictionary_encode (a dictionary column's values first)."""
    if pa.types.is_dictionary(col.type):
        col = pc.cast(col, col.type.value_type)
    if pa.types.is_floating(col.type):
        col = pc.add(col, pa.scalar(0.0, col.type))  # -0.0 + 0.0 is 0.0
    d = pc.dictionary_encode(col, null_encoding='encode')
    if isinstance(d, pa.ChunkedArray):
        if d.num_chunks == 0:
            return pa.chunked_array([], pa.int64()), 0
        d = d.unify_dictionaries() if d.num_chunks > 1 else d
        return pc.cast(pa.chunked_array([c.indices for c in d.chunks]), pa.int64()), len(d.chunk(0).dictionary)
    return pc.cast(d.indices, pa.int64()), len(d.dictionary)


def _pa_distinct_rows(pa, t):
    """The distinct rows of a Table or RecordBatch: each column's codes
    (_pa_codes) folded into one int64 key (key * codes + code, encoded
    again before it could overflow), then count_distinct; about twice as
    fast as a group_by of every column."""
    pc = _mod('pyarrow.compute')
    key, card = None, 1
    for col in t.columns:
        codes, m = _pa_codes(pa, pc, col)
        m = max(m, 1)
        if key is None:
            key, card = codes, m
            continue
        if card * m >= 2 ** 62:
            key, card = _pa_codes(pa, pc, key)
        key = pc.add(pc.multiply(key, m), codes)
        card *= m
    return t.num_rows if key is None else int(pc.count_distinct(key, mode='all').as_py())


def _inspect_arrow_dataset(ds, opts, B, res):
    pa = _mod('pyarrow')
    cols = [_EngCol(str(f.name), str(f.type), _pa_kind(pa, f.type)) for f in ds.schema]
    _eng_structure(res, None, cols)
    _eng_engine(res, name='pyarrow', lazy=True, dataset=_short(type(ds)))
    if not opts.get('compute'):
        res['warnings'].append('a Dataset is not read: schema only (the compute option counts its rows and lists its fragments)')
        return
    t0 = time.perf_counter()
    frags = []
    for i, f in enumerate(ds.get_fragments()):
        if i >= _MAX_ITEMS or not B.ok('fragments'):
            break
        frags.append(str(getattr(f, 'path', '') or _short(type(f))))
    n = int(ds.count_rows())
    res['structure']['shape'][0] = n
    _eng_engine(res, fragments=frags, computed='computed by pyarrow: rows counted, fragments listed in %.3g s' % (time.perf_counter() - t0))


_ENGINE_INSPECT.update(arrow_table=_inspect_arrow_table, arrow_batch=_inspect_arrow_table, arrow_dataset=_inspect_arrow_dataset,
                       arrow_chunked=lambda o, opts, B, res: _inspect_arrow_table(o, opts, B, res, 'arrow_chunked'),
                       arrow_array=lambda o, opts, B, res: _inspect_arrow_table(o, opts, B, res, 'arrow_array'))


def _pa_page(obj, kind, sel, off, lim, B):
    pa, pc = _mod('pyarrow'), _mod('pyarrow.compute')
    t = _pa_table(obj, kind)
    if kind == 'arrow_batch':
        t = pa.Table.from_batches([obj])
    names = [str(f.name) for f in t.schema]
    kinds = dict((str(f.name), _pa_kind(pa, f.type)) for f in t.schema)
    cols = [names[i] for i in _sel_columns(_EngNames(names), sel.get('columns'))]
    flt, sort = sel.get('filter'), sel.get('sort') or []
    n = int(t.num_rows)
    out = {'names': cols, 'dtypes': [str(t.schema.field(c).type) for c in cols], 'all_rows': n, 'na': 0,
           'cached': False, 'column_count': len(names)}
    sub = t.select(cols)
    if not flt and not sort:
        page = sub.slice(off, lim)
        out.update(rows=[tuple(r.values()) for r in page.to_pylist()], positions=list(range(off, off + page.num_rows)), total=n)
        return out
    hit = _eng_cache_get(obj, sel)
    if hit is None:
        na = 0
        pos = pa.array(range(n), type=pa.int64()) if _mod('numpy') is None else pa.array(_mod('numpy').arange(n, dtype='int64'))
        view = t
        if flt:
            fb = _FBArrow(pc)
            expr = _fl_compile(flt, kinds, fb)
            x = t.append_column('__dapscope_pos', pos)
            for name, labels, keep in fb.derived:
                x = x.append_column(name, _pa_duplicated(x, labels, keep, pos))
            na = int(x.filter(pc.is_null(expr)).num_rows)
            view = x.filter(expr)
            pos = view.column('__dapscope_pos').combine_chunks()
        if sort:
            by = _eng_sort_names(names, sort)
            keys = [(c, 'descending' if k.get('descending') else 'ascending') for c, k in zip(by, sort)]
            kv = view.select(by)
            for j, f in enumerate(kv.schema):  # a dictionary sorts by its values (pandas: categories are lexical here)
                if pa.types.is_dictionary(f.type):
                    kv = kv.set_column(j, f.name, pc.cast(kv.column(j), f.type.value_type))
            try:  # pyarrow 25: the null placement per key
                idx = pc.sort_indices(kv, sort_keys=[k + ('at_end',) for k in keys])
            except (TypeError, ValueError):
                idx = pc.sort_indices(kv, sort_keys=keys, null_placement='at_end')
            pos = pos.take(idx)
        hit = _eng_cache_put(obj, sel, _EngOrder(pos, pos.nbytes), na)
    else:
        out['cached'] = True
    p = hit['order'].page(off, lim)
    page = sub.take(p) if len(p) else sub.slice(0, 0)
    out.update(rows=[tuple(r.values()) for r in page.to_pylist()], positions=p.to_pylist(), total=int(hit['total']), na=hit['na'])
    return out


def _pa_duplicated(t, labels, keep, pos):
    """pandas' duplicated(keep=) over t's columns labels, computed by
    pyarrow in row order: each key dictionary-encoded (nulls one code, NaN
    one code, -0.0 as 0.0), the codes folded into one group code per row,
    then per group its first or last position or its count (group_by),
    taken back to each row."""
    pa, pc = _mod('pyarrow'), _mod('pyarrow.compute')
    code = None
    for c in labels:
        a = t.column(c).combine_chunks()
        if pa.types.is_dictionary(a.type):
            a = pc.cast(a, a.type.value_type)
        if pa.types.is_floating(a.type):
            a = pc.add(a, pa.scalar(0.0, a.type))  # -0.0 + 0.0 is 0.0: equal, as pandas
        d = pc.dictionary_encode(a, null_encoding='encode')
        idx = pc.cast(d.indices, pa.int64())
        if code is not None:  # both below the row count: the pair's code fits an int64
            idx = pc.dictionary_encode(pc.add(pc.multiply(code, len(d.dictionary)), idx)).indices
            idx = pc.cast(idx, pa.int64())
        code = idx
    g = pa.table({'g': code, 'p': pos})
    agg = 'count' if keep is False else 'min' if keep == 'first' else 'max'
    per = g.group_by('g').aggregate([('p', agg)])
    per = per.take(pc.sort_indices(per.column('g')))  # the codes are 0..k-1: row j is code j
    got = pc.take(per.column('p_' + agg), code)
    return pc.greater(got, 1) if keep is False else pc.not_equal(got, pos)


_ENGINE_PAGE.update(arrow_table=_pa_page, arrow_batch=_pa_page, arrow_chunked=_pa_page, arrow_array=_pa_page)
