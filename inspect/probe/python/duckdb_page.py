# dapscope Python probe: pages of DuckDB relations (select_engines.py's
# page function for duckdb_rel), computed by DuckDB; over a table whose
# rowids are its positions, later pages are kept in memory (bounded by the
# selection cache) so that a page is a slice or a take, no query.

# ---------------------------------------------------------------- duckdb pages


def _dk_page(rel, kind, sel, off, lim, B):
    """A page computed by DuckDB: WHERE (the filter's expression objects),
    ORDER BY the keys with NULLS LAST then the row position (stable),
    LIMIT/OFFSET. The row count and whether rel is a table whose rowids are
    its positions are asked once per stop. Over such a table a first page
    is a rowid range, or DuckDB's top-N of the keys and rowids; a later
    page reads the table's columns kept in memory (_dk_store: a slice, or
    a take of the rowids of the order kept, as pandas' is: no query), else
    the ordered rows kept where they fit half the cache's bound, else one
    lookup of its rowids. Another relation's pages are one query each."""
    duckdb = _mod('duckdb')
    C, K, S = duckdb.ColumnExpression, duckdb.ConstantExpression, duckdb.SQLExpression
    names = [str(c) for c in rel.columns]
    dtypes = [str(t) for t in rel.types]
    kinds = dict(zip(names, [_dk_kind(d) for d in dtypes]))
    cols = [names[i] for i in _sel_columns(_EngNames(names), sel.get('columns'))]
    flt, sort = sel.get('filter'), sel.get('sort') or []
    t0 = time.perf_counter()
    all_rows, rowid, queries = _dk_meta(rel)
    out = {'names': cols, 'dtypes': [dtypes[names.index(c)] for c in cols], 'all_rows': all_rows, 'total': all_rows,
           'na': 0, 'column_count': len(names), 'cached': False}

    def done(n):
        out['computed'] = 'computed by DuckDB: %d quer%s%s, %.3g s' % (n, 'y' if n == 1 else 'ies', '' if n else
                                                                       ' (the rows kept at an earlier page)', time.perf_counter() - t0)
        return out
    if not flt and not sort:  # scan order: positions by arithmetic
        if rowid:
            n = max(0, min(lim, all_rows - off))
            got, ran = _dk_store(rel, names, dtypes, cols, all_rows, B, build=off > 0) if n else (None, 0)
            if got is not None:  # the columns kept: a slice
                out.update(cols=[_dk_cells(a, slice(off, off + n)) for a in got], positions=list(range(off, off + n)))
                return done(queries + ran)
            # a rowid range: DuckDB reads only the row group holding it
            got = sorted(rel.filter(S('rowid').between(K(off), K(off + lim - 1))).project(
                *([C(c) for c in cols] + [S('rowid')])).fetchall(), key=lambda r: r[-1]) if n else []
            out.update(rows=[r[:-1] for r in got], positions=[r[-1] for r in got])
            return done(queries + ran + bool(n))
        got = rel.project(*[C(c) for c in cols]).limit(lim, off).fetchall()
        out.update(rows=got, positions=list(range(off, off + len(got))))
        return done(queries + 1)
    hit = _eng_cache_get(rel, sel) if rowid else None
    if hit is None:
        r = rel.project(*([C(c) for c in names] + [S('rowid').alias('__dapscope_pos')])) if rowid else _dk_pos(rel)
        na, total = 0, all_rows
        if flt:
            fb = _FBDuck(duckdb)
            expr = _fl_compile(flt, kinds, fb)
            if fb.derived:
                r = _dk_derive(r, fb.derived)
            na, total = (int(x or 0) for x in r.aggregate([duckdb.FunctionExpression('count_if', expr.isnull()),
                                                            duckdb.FunctionExpression('count_if', expr)]).fetchall()[0])
            r = r.filter(expr)
            if fb.derived:  # the page's own columns again (the order kept reads every column of r)
                r = r.project(*([C(c) for c in names] + [C('__dapscope_pos')]))
            queries += 1
        keys = []
        by = _eng_sort_names(names, sort) if sort else []
        for c, k in zip(by, sort):
            e = C(c)
            keys.append((e.desc() if k.get('descending') else e.asc()).nulls_last())
        out.update(total=total, na=na)
        if rowid and off == 0 and sort:
            # a table's first sorted page: DuckDB's top-N of the keys and rowids
            # alone (it reads only those columns), then the page's rows by rowid
            top = r.project(*([C(c) for c in by] + [C('__dapscope_pos')])).sort(*(keys + [C('__dapscope_pos').asc()]))
            pos = [p[-1] for p in top.limit(lim).fetchall()]
            got, ran = _dk_store(rel, names, dtypes, cols, all_rows, B, build=False)
            if got is not None:
                out.update(cols=[_dk_cells(a, pos) for a in got], positions=pos)
                return done(queries + 1)
            out.update(rows=_dk_fetch(rel, cols, pos), positions=pos)
            return done(queries + 1 + bool(pos))
        r = r.sort(*(keys + [C('__dapscope_pos').asc()]))
        if not rowid or off == 0:  # one query: DuckDB's top-N for a first page, each page so without rowids
            page = r.project(*([C(c) for c in cols] + [C('__dapscope_pos')])).limit(lim, off).fetchall()
            out.update(rows=[p[:-1] for p in page], positions=[p[-1] for p in page])
            return done(queries + 1)
        got, ran = _dk_store(rel, names, dtypes, cols, all_rows, B)
        queries += ran
        rows = _dk_keep_rows(rel, r, dtypes, total) if got is None else None
        # the order: the rowids alone, in the narrowest integer type
        pos = S('CAST("__dapscope_pos" AS %s)' % ('INTEGER' if all_rows < 2 ** 31 else 'BIGINT'))
        order = (rows.column('__dapscope_pos') if rows is not None else _dk_arrow(r.project(pos)).column(0)).combine_chunks()
        queries += 1
        hit = _eng_cache_put(rel, sel, _EngOrder(order, order.nbytes + (rows.nbytes if rows is not None else 0)), na)
        hit['rows'] = rows
    else:
        out['cached'] = True
        out.update(total=int(hit['total']), na=hit['na'])
    pos = hit['order'].page(off, lim)
    if hit['rows'] is not None:  # the ordered rows are kept: a slice
        part = hit['rows'].slice(off, len(pos))
        out.update(cols=[part.column(c).to_pylist() for c in cols], positions=pos.to_pylist())
        return done(queries)
    got, ran = _dk_store(rel, names, dtypes, cols, all_rows, B)
    queries += ran
    if got is not None:  # the columns kept: a take of the page's rowids
        idx = pos.to_numpy() if _mod('numpy') is not None else pos
        out.update(cols=[_dk_cells(a, idx) for a in got], positions=idx.tolist() if hasattr(idx, 'tolist') else idx.to_pylist())
        return done(queries)
    pos = pos.to_pylist()
    out.update(rows=_dk_fetch(rel, cols, pos), positions=pos)
    return done(queries + bool(pos))


def _dk_fetch(rel, cols, pos):
    """The rows of a table at rowids pos, in that order: one lookup
    (integers the probe holds, as a list constant)."""
    if not pos:
        return []
    S, C = _mod('duckdb').SQLExpression, _mod('duckdb').ColumnExpression
    got = dict((row[-1], row[:-1]) for row in rel.filter(S('rowid = ANY([%s])' % ','.join(str(int(i)) for i in pos))).project(
        *([C(c) for c in cols] + [S('rowid')])).fetchall())
    return [got[i] for i in pos]


def _dk_meta(rel):
    """(rows, rowids are positions, queries run): asked once per stop and
    kept in select.py's cache (nothing runs between two calls of a stop)."""
    key = (id(rel), 'duckdb-meta')
    hit = _SEL['cache'].get(key)
    if hit is not None and _sel_same(hit, rel, _eng_version(rel)):
        _SEL['tick'] += 1
        hit['tick'] = _SEL['tick']
        return hit['meta'] + (0,)
    meta = _dk_rowid(rel)
    _SEL['tick'] += 1
    _SEL['cache'][key] = {'order': _EngOrder((), 0), 'meta': meta, 'total': 0, 'full': True, 'na': 0,
                          'tick': _SEL['tick'], 'ref': _sel_hold(rel), 'version': _eng_version(rel)}
    return meta + (2,)


# types whose cells DuckDB (fetchall) and Arrow (to_pylist) give alike
_DK_ARROW_SAFE = ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT',
                  'FLOAT', 'DOUBLE', 'BOOLEAN', 'VARCHAR', 'DATE', 'TIMESTAMP')


def _dk_keep_rows(rel, r, dtypes, total):
    """The ordered rows r as an Arrow table when every column's cells come
    back alike and they fit half the cache's bound (estimated from rel's
    first rows, a scan), else None (the rowids alone are kept)."""
    if not all(d.upper() in _DK_ARROW_SAFE or d.startswith('ENUM(') for d in dtypes) or _mod('pyarrow') is None:
        return None
    head = _dk_arrow(rel.limit(2048))
    if head.num_rows and (head.nbytes / float(head.num_rows) + 8) * total * 1.25 > _SEL_LIMIT / 2:
        return None
    t = _dk_arrow(r)
    return t if t.nbytes <= _SEL_LIMIT / 2 else None


class _DkStore(object):
    """A table's columns kept for the stop: Arrow arrays (one chunk each)
    by name, and their bytes (the selection cache counts them)."""
    __slots__ = ('cols', 'nbytes', 'no')

    def __init__(self):
        self.cols, self.nbytes, self.no = {}, 0, set()  # no: columns that did not fit


# the integer types a column is kept in, narrowest first: (type, bytes, low, high)
_DK_NARROW = (('TINYINT', 1, -2 ** 7, 2 ** 7 - 1), ('SMALLINT', 2, -2 ** 15, 2 ** 15 - 1), ('INTEGER', 4, -2 ** 31, 2 ** 31 - 1))
_DK_WIDTH = {'TINYINT': 1, 'SMALLINT': 2, 'INTEGER': 4, 'UTINYINT': 1, 'USMALLINT': 2, 'UINTEGER': 4}


def _dk_store(rel, names, dtypes, cols, n, B, build=True):
    """(the arrays of columns cols of the table rel, or None; queries run).
    The columns are kept in the selection cache (dropped at the next stop
    or evaluate, as the orders are): each integer column in the narrowest
    type holding its values (one aggregate gives their ranges), the others
    as DuckDB gives them, read in ONE query. Only columns whose cells come
    back alike (_DK_ARROW_SAFE) are kept, and only while, with an order of
    the table's rowids beside them, they fit the cache's bound, and when
    half the time budget is left (else None: the caller asks DuckDB)."""
    key = (id(rel), 'duckdb-store')
    hit = _SEL['cache'].get(key)
    if hit is not None and not _sel_same(hit, rel, _eng_version(rel)):
        _SEL['bytes'] -= _SEL['cache'].pop(key)['order'].nbytes
        hit = None
    st = hit['order'] if hit is not None else None
    if hit is not None:
        _SEL['tick'] += 1
        hit['tick'] = _SEL['tick']
    miss = [c for c in cols if st is None or c not in st.cols]
    if not miss:
        return [st.cols[c] for c in cols], 0
    if st is not None and st.no.intersection(miss):
        return None, 0
    types = dict(zip(names, dtypes))
    if not build or _mod('pyarrow') is None or B.left() < 0.5 or not all(
            types[c].upper() in _DK_ARROW_SAFE or types[c].startswith('ENUM(') for c in miss):
        return None, 0
    if st is None:
        st = _DkStore()
        _SEL['tick'] += 1
        _SEL['cache'][key] = {'order': st, 'total': 0, 'full': True, 'na': 0, 'tick': _SEL['tick'],
                              'ref': _sel_hold(rel), 'version': _eng_version(rel)}
    duckdb = _mod('duckdb')
    C, K, S = duckdb.ColumnExpression, duckdb.ConstantExpression, duckdb.SQLExpression
    ran, cast, width, codes = 0, {}, {}, {}
    ints = [c for c in miss if _dk_kind(types[c]) == 'int']
    strs = [c for c in miss if types[c].upper() == 'VARCHAR']
    if ints or strs:  # the integers' ranges, the texts' distinct counts (estimated)
        row = rel.aggregate(', '.join(['min(%s), max(%s)' % (_sql_ident(c), _sql_ident(c)) for c in ints] +
                                      ['approx_count_distinct(%s)' % _sql_ident(c) for c in strs])).fetchall()[0]
        ran += 1
        for i, c in enumerate(ints):
            lo, hi = row[2 * i], row[2 * i + 1]
            t = [x for x in _DK_NARROW if lo is None or (x[2] <= lo and hi <= x[3])]
            if t and t[0][1] < _DK_WIDTH.get(types[c].upper(), 8):
                cast[c] = t[0][0]
            width[c] = t[0][1] if t else _DK_WIDTH.get(types[c].upper(), 8)
        for c, d in zip(strs, row[2 * len(ints):]):
            if d is not None and int(d) <= _DK_NARROW[1][3] // 2 and hasattr(duckdb, 'sqltype'):  # few distinct texts: kept as a dictionary of them
                vals = [v[0] for v in rel.project(C(c)).filter(C(c).isnotnull()).distinct().limit(_DK_NARROW[1][3] + 1).fetchall()]
                ran += 1
                if len(vals) <= _DK_NARROW[1][3]:
                    t = _DK_NARROW[0 if len(vals) <= _DK_NARROW[0][3] else 1]
                    codes[c] = (vals, t[0])
                    width[c] = t[1]
    rest = [c for c in miss if c not in width]
    if rest:  # bytes a row from the first rows: exact for fixed widths, estimated for texts
        head = _dk_arrow(rel.project(*[C(c) for c in rest]).limit(2048))
        ran += 1
        for c, a in zip(rest, head.columns):
            width[c] = (a.nbytes / float(len(a)) if len(a) else 8) * (1.1 if types[c].upper() == 'VARCHAR' else 1)
    if st.nbytes + n * (sum(width[c] + 0.125 for c in miss) + 4) > _SEL_LIMIT:
        st.no.update(miss)
        return None, ran
    if B.left() < 0.5:
        return None, ran

    def expr(c):
        if c in codes:  # the text's place in the list of distinct texts (a bound list): 0, 1, …
            return (duckdb.FunctionExpression('list_position', K(codes[c][0]), C(c)) - K(1)).cast(duckdb.sqltype(codes[c][1]))
        return S('CAST(%s AS %s)' % (_sql_ident(c), cast[c])) if c in cast else C(c)
    t = _dk_arrow(rel.project(*[expr(c) for c in miss]))
    ran += 1
    pa = _mod('pyarrow')
    got = []
    while t.num_columns:  # one chunk each, the chunks let go column by column (the peak: one column twice)
        got.append(t.column(0).combine_chunks())
        t = t.remove_column(0)
    got = [_dk_col(a, codes[c][0] if c in codes else None) for c, a in zip(miss, got)]
    size = sum(_dk_col_bytes(a) for a in got)
    if st.nbytes + size + 4 * n > _SEL_LIMIT:
        st.no.update(miss)
        return None, ran
    st.cols.update(zip(miss, got))
    st.nbytes += size
    _SEL['bytes'] += size
    while _SEL['bytes'] > _SEL_LIMIT and len(_SEL['cache']) > 1:
        old = min((k for k in _SEL['cache'] if k != key), key=lambda k: _SEL['cache'][k]['tick'])
        _SEL['bytes'] -= _SEL['cache'].pop(old)['order'].nbytes
    return [st.cols[c] for c in cols], ran


def _dk_col(a, vals):
    """A kept column: (numpy array, None) for numbers without nulls (a
    view of the Arrow buffer: a page is a numpy take), (numpy codes, the
    texts) for a dictionary without nulls, else the Arrow array (vals: the
    texts its codes index)."""
    np, pa = _mod('numpy'), _mod('pyarrow')
    if np is not None and a.null_count == 0 and (vals is not None or pa.types.is_integer(a.type) or pa.types.is_floating(a.type)):
        return (a.to_numpy(), vals)
    return pa.DictionaryArray.from_arrays(a, pa.array(vals, pa.string())) if vals is not None else a


def _dk_col_bytes(a):
    return a[0].nbytes + 64 * len(a[1] or ()) if type(a) is tuple else a.nbytes


def _dk_cells(a, idx):
    """The cells of a kept column (_dk_col) at idx (a slice, or positions:
    a list or numpy array), as Python values."""
    if type(a) is tuple:
        x = a[0][idx].tolist()
        return [a[1][i] for i in x] if a[1] is not None else x
    if type(idx) is slice:
        return a.slice(idx.start, idx.stop - idx.start).to_pylist()
    return a.take(idx).to_pylist() if len(idx) else []


def _dk_arrow(r):
    f = getattr(r, 'to_arrow_table', None)  # DuckDB 2 (fetch_arrow_table is deprecated there)
    return f() if f is not None else r.fetch_arrow_table()


def _dk_rowid(rel):
    """(rows, whether rel reads a table whose rowids are its row positions:
    no gaps, nothing deleted), so an order can be kept as rowids. Rowids
    grow in scan order, so n rows whose last rowid is n - 1 are 0 … n - 1:
    the second query reads only the last row group (a rowid range)."""
    n = int(rel.aggregate('count(*)').fetchall()[0][0])
    if _mod('pyarrow') is None or n == 0:
        return n, False
    try:
        c, m = rel.filter('rowid >= %d' % (n - 1)).aggregate('count(*), max(rowid)').fetchall()[0]
    except Exception:
        return n, False  # not a table (a DataFrame, a query): no rowid
    return n, int(c) == 1 and m is not None and int(m) == n - 1


_ENGINE_PAGE.update(duckdb_rel=_dk_page)
