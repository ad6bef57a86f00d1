# dapscope Python probe: pages of DuckDB relations (select_engines.py's
# page function for duckdb_rel), computed by DuckDB; over a table whose
# rowids are its positions, later pages are kept in memory (bounded by the
# selection cache) so that a page is a slice or a take, no query.

# ---------------------------------------------------------------- duckdb pages


def _dk_page(rel, kind, sel, off, lim, B):
    """A page computed by DuckDB: WHERE (the filter's expression objects),
    ORDER BY the keys with NULLS LAST then the row position (stable),
    LIMIT/OFFSET. The row count and whether rel is a table whose rowids are
    its positions are asked once per stop. Over such a table a plain page
    is a rowid range (DuckDB skips to its row group); a sorted or filtered
    first page is DuckDB's top-N query; a later page keeps the whole order,
    as pandas' is kept: the ordered rows themselves (Arrow) where they fit
    the cache's bound (a later page is then a slice: no query), else their
    rowids (a later page is one lookup of its rowids). Another relation's
    pages are one query each."""
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
                                                                       ' (the ordered rows kept at an earlier page)', time.perf_counter() - t0)
        return out
    if not flt and not sort:  # scan order: positions by arithmetic
        if rowid:  # a rowid range: DuckDB reads only the row group holding it
            got = sorted(rel.filter(S('rowid').between(K(off), K(off + lim - 1))).project(
                *([C(c) for c in cols] + [S('rowid')])).fetchall(), key=lambda r: r[-1]) if lim else []
            out.update(rows=[r[:-1] for r in got], positions=[r[-1] for r in got])
        else:
            got = rel.project(*[C(c) for c in cols]).limit(lim, off).fetchall()
            out.update(rows=got, positions=list(range(off, off + len(got))))
        return done(queries + 1)
    hit = _eng_cache_get(rel, sel) if rowid else None
    if hit is None:
        r = rel.project(*([C(c) for c in names] + [S('rowid').alias('__dapscope_pos')])) if rowid else _dk_pos(rel)
        na, total = 0, all_rows
        if flt:
            expr = _fl_compile(flt, kinds, _FBDuck(duckdb))
            na, total = (int(x or 0) for x in r.aggregate([duckdb.FunctionExpression('count_if', expr.isnull()),
                                                            duckdb.FunctionExpression('count_if', expr)]).fetchall()[0])
            r = r.filter(expr)
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
            out.update(rows=_dk_fetch(rel, cols, pos), positions=pos)
            return done(queries + 1 + bool(pos))
        r = r.sort(*(keys + [C('__dapscope_pos').asc()]))
        if not rowid or off == 0:  # one query: DuckDB's top-N for a first page, each page so without rowids
            page = r.project(*([C(c) for c in cols] + [C('__dapscope_pos')])).limit(lim, off).fetchall()
            out.update(rows=[p[:-1] for p in page], positions=[p[-1] for p in page])
            return done(queries + 1)
        rows = _dk_keep_rows(rel, r, dtypes, total)
        order = (rows.column('__dapscope_pos') if rows is not None else
                 _dk_arrow(r.project(C('__dapscope_pos'))).column(0)).combine_chunks()
        queries += 1
        hit = _eng_cache_put(rel, sel, _EngOrder(order, order.nbytes + (rows.nbytes if rows is not None else 0)), na)
        hit['rows'] = rows
    else:
        out['cached'] = True
        out.update(total=int(hit['total']), na=hit['na'])
    pos = hit['order'].page(off, lim).to_pylist()
    if hit['rows'] is not None:  # the ordered rows are kept: a slice
        part = hit['rows'].slice(off, len(pos))
        out.update(cols=[part.column(c).to_pylist() for c in cols], positions=pos)
        return done(queries)
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
