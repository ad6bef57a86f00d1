# dapscope Python probe: DuckDB relations (DuckDBPyRelation). Free: the
# columns, their types and the plan (explain(), nothing runs). Within the
# time budget, run by DuckDB: the row count, nulls and every column's
# aggregates in ONE aggregate query, top values by a GROUP BY per column,
# numbers for quantiles and the histogram (at most _SAMPLE, evenly spaced
# by row number). Only DuckDB's answers cross. SQL text here is built from
# quoted identifiers and integers the probe computed; a browse filter is
# compiled to DuckDB's own expression objects (ColumnExpression for names,
# ConstantExpression for the user's literals: bound values, never text).

# ---------------------------------------------------------------- duckdb


def _dk_kind(t):
    s = str(t).upper()
    if s in ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT'):
        return 'int'
    if s in ('FLOAT', 'DOUBLE', 'REAL') or s.startswith('DECIMAL'):
        return 'float'
    if s == 'BOOLEAN':
        return 'bool'
    if s == 'VARCHAR':
        return 'str'
    if s.startswith('ENUM'):
        return 'cat'
    if s.startswith('TIMESTAMP') or s == 'DATE':
        return 'datetime'
    return 'other'


def _dk_aggs(i, name, kind, dtype):
    q = _sql_ident(name)
    a = lambda e, k: '%s AS "%d:%s"' % (e, i, k)
    out = [a('count(*) - count(%s)' % q, 'null')]
    if kind in ('int', 'float'):
        isfloat = dtype.upper() in ('FLOAT', 'DOUBLE', 'REAL')
        fin = ('CASE WHEN isfinite(%s) THEN %s END' % (q, q)) if isfloat else q
        out += [a('min(%s)' % fin, 'min'), a('max(%s)' % fin, 'max'), a('avg(%s::DOUBLE)' % fin, 'mean'),
                a('stddev_samp(%s::DOUBLE)' % fin, 'std'), a('count(*) FILTER (WHERE %s = 0)' % fin, 'zeros'),
                a('count(DISTINCT %s)' % fin, 'distinct'), a('count(%s)' % fin, 'finite')]
        if isfloat:
            out += [a('count(*) FILTER (WHERE isnan(%s))' % q, 'nan'), a('count(*) FILTER (WHERE isinf(%s))' % q, 'inf'),
                    a('count(DISTINCT CASE WHEN isinf(%s) THEN %s END)' % (q, q), 'infs')]
    elif kind == 'bool':
        out.append(a('count(*) FILTER (WHERE %s)' % q, 'true'))
    elif kind == 'str':
        out += [a('count(DISTINCT %s)' % q, 'distinct'), a('min(length(%s))' % q, 'lmin'), a('max(length(%s))' % q, 'lmax'),
                a('avg(length(%s))' % q, 'lmean')]
    elif kind == 'cat':
        out.append(a('count(DISTINCT %s)' % q, 'distinct'))
    elif kind == 'datetime':
        out += [a('min(%s)' % q, 'min'), a('max(%s)' % q, 'max'), a('first(%s ORDER BY "__dapscope_pos") FILTER (WHERE %s IS NOT NULL)' % (q, q), 'first'),
                a('last(%s ORDER BY "__dapscope_pos") FILTER (WHERE %s IS NOT NULL)' % (q, q), 'last'), a('count(DISTINCT %s)' % q, 'dt_distinct')]
    return out


def _dk_pos(rel):
    """rel with its row position (0-based) as "__dapscope_pos"."""
    duckdb = _mod('duckdb')
    return rel.project(*([duckdb.ColumnExpression(c) for c in rel.columns]
                         + [duckdb.SQLExpression('row_number() OVER () - 1').alias('__dapscope_pos')]))


def _inspect_duckdb(rel, opts, B, res):
    names = [str(c) for c in rel.columns]
    dtypes = [str(t) for t in rel.types]
    cols = [_EngCol(n, d, _dk_kind(d)) for n, d in zip(names, dtypes)]
    for c in cols:
        c.clues = True  # count(DISTINCT) is exact: repeated values and keys
    _eng_structure(res, None, cols)
    try:
        full = rel.explain()
        plan = _cut(full, 4000, _Trunc())
    except Exception as e:
        full, plan = '', 'explain() failed: %s' % _short(type(e))
    _eng_engine(res, name='duckdb', plan=plan)
    if not B.ok('duckdb.count'):
        return
    t0 = time.perf_counter()
    queries = 0
    stats = bool(opts.get('include_statistics', True))
    pr = _dk_pos(rel)
    aggs = ['count(*) AS "n"']
    for i, c in enumerate(cols):
        aggs += _dk_aggs(i, c.name, c.kind, c.dtype) if stats and i < _STAT_COLUMNS else [
            'count(*) - count(%s) AS "%d:null"' % (_sql_ident(c.name), i)]
    rows_in = stats and _dk_rows_within(full, len(cols))
    if rows_in:
        aggs.append('count(DISTINCT %s) AS "rows"' % _dk_row(cols))
    try:
        row = pr.aggregate(', '.join(aggs)).fetchall()[0]
    except Exception:
        if not rows_in:
            raise
        aggs.pop()  # a column DuckDB cannot compare as part of a row: the facts without the distinct rows
        row = pr.aggregate(', '.join(aggs)).fetchall()[0]
        queries += 1
    queries += 1
    keys = ['n'] + [a.rsplit(' AS ', 1)[1].strip('"') for a in aggs[1:]]
    n = int(row[0])
    got = dict(zip(keys[1:], row[1:]))
    distinct_rows = got.pop('rows', None)
    for key, v in got.items():
        i, k = key.split(':', 1)
        c = cols[int(i)]
        if k == 'null':
            c.nulls = int(v)
        else:
            c.agg[k] = float(v) if k in ('min', 'max') and c.kind == 'float' and v is not None else v
    for c in cols:  # a float's distinct values: the finite ones and the infinities
        if c.kind == 'float' and c.agg.get('distinct') is not None:
            c.agg['distinct'] += int(c.agg.pop('infs', 0) or 0)
    res['structure']['shape'][0] = n
    for e, c in zip(res['structure']['columns'], cols):
        e['null_count'] = int(c.nulls)
    rows, tail_n = _eng_tail_n(n, opts)
    pc = names[:_PREVIEW_COLUMNS]
    head = rel.limit(rows).fetchall()
    tail = rel.limit(tail_n, n - tail_n).fetchall() if tail_n else None
    queries += 1 + bool(tail_n)
    _eng_preview(res, pc, [r[:len(pc)] for r in head], [r[:len(pc)] for r in tail] if tail else None, n, opts)
    if stats:
        queries += _dk_stats(rel, pr, cols, B)
        ran = []

        def count_rows():  # the one aggregate's, else (the plan's estimate was wrong) a query of its own
            if distinct_rows is not None:
                return distinct_rows
            ran.append(1)
            return pr.aggregate('count(DISTINCT %s)' % _dk_row(cols)).fetchall()[0][0]
        _eng_statistics(res, cols, n, B, opts, distinct_rows=count_rows, rows_free=distinct_rows is not None)
        queries += len(ran)
    note = 'computed by DuckDB: %d queries, %.3g s' % (queries, time.perf_counter() - t0)
    if 'statistics' in res:
        res['statistics']['computed'] = note
    _eng_engine(res, computed=note)


def _dk_row(cols):
    """A row of every column as one value (a STRUCT: never NULL, its NULL
    fields equal, NaN equal to NaN, -0.0 to 0.0, as pandas' duplicated())."""
    return 'row(%s)' % ', '.join(_sql_ident(c.name) for c in cols)


def _dk_rows_within(plan, k):
    """Whether the plan's estimated rows (its top node's '~N rows') are
    within pandas' bound for duplicate rows (_EXACT_LIMIT cells past
    _DUP_ROWS rows): then the distinct rows are counted in the one
    aggregate query; else only once the exact count says so."""
    m = _re.search(r'~([\d,]+) rows?', plan or '')
    if m is None:
        return False
    est = int(m.group(1).replace(',', ''))
    return est <= _DUP_ROWS or est * k <= _EXACT_LIMIT


def _dk_stats(rel, pr, cols, B):
    """Top values and numeric samples, column by column while the budget
    lasts; returns how many queries ran."""
    duckdb = _mod('duckdb')
    C = duckdb.ColumnExpression
    ran = 0
    for i, c in enumerate(cols[:_STAT_COLUMNS]):
        if not B.ok('statistics.columns[%d:]' % i):
            break
        q = _sql_ident(c.name)
        if c.kind in ('int', 'float') and c.agg.get('finite'):
            size = int(c.agg['finite'])
            cond = ('isfinite(%s)' % q) if c.dtype.upper() in ('FLOAT', 'DOUBLE', 'REAL') else ('%s IS NOT NULL' % q)
            vals = pr.filter(duckdb.SQLExpression(cond)).project(duckdb.SQLExpression('%s::DOUBLE' % q).alias('v'),
                                                                   duckdb.SQLExpression('row_number() OVER (ORDER BY "__dapscope_pos") - 1').alias('i'))
            if size > _SAMPLE:
                m = _SAMPLE  # row i is sampled when floor(ceil(i*m/size)*size/m) == i
                vals = vals.filter(duckdb.SQLExpression('((i * %d + %d) // %d) * %d // %d = i' % (m, size - 1, size, size, m)))
            c.sample = [r[0] for r in vals.project(C('v')).fetchall()]
            ran += 1
        elif c.kind in ('str', 'cat', 'other'):
            try:
                order = 'n DESC, %s ASC' % ('v' if c.kind == 'cat' else 'i')
                g = pr.filter(duckdb.SQLExpression('%s IS NOT NULL' % q)).aggregate(
                    '%s AS v, count(*) AS n, min("__dapscope_pos") AS i' % q, q).order(order).limit(5)
                c.top = [(r[0], r[1]) for r in g.fetchall()]
                ran += 1
            except Exception:
                pass
            if c.kind == 'str' and c.agg.get('lmin') is not None:
                c.str_len = (c.agg['lmin'], c.agg['lmax'], c.agg['lmean'])
            if c.kind == 'cat':
                c.ordered = False  # an ENUM compares by its order, but is a pandas Categorical unordered
                c.categories = c.dtype.count("'") // 2 or c.agg.get('distinct')
    return ran


_ENGINE_INSPECT.update(duckdb_rel=_inspect_duckdb)


def _dk_table(con, name, where):
    """con['name']: a table or view of a DuckDB connection as a relation
    (con.table / con.view: nothing runs until inspected); a name it does not
    have lists the ones it has (read from information_schema, bound)."""
    names = [r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name LIMIT 50").fetchall()]
    exists = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
                         [name]).fetchall()[0][0]
    if not exists:
        raise _ProbeError('VARIABLE_NOT_FOUND', '%s has no table or view %r' % (where, name),
                          'available_variables lists its tables and views', names)
    try:
        return con.table(name)
    except Exception:
        return con.view(name)


class _FBDuck(_FBPolars):
    """DuckDB expression objects: names as ColumnExpression, literals as
    ConstantExpression (bound values), functions by name."""

    def __init__(self, duckdb):
        self.d = duckdb

    def col(self, name):
        return self.d.ColumnExpression(name)

    def lit(self, v):
        return self.d.ConstantExpression(v)

    def _f(self, name, *a):
        return self.d.FunctionExpression(name, *a)

    def xor(self, a, b):
        return self.d.CaseExpression(a.isnull() | b.isnull(), self.lit(None)).otherwise(a != b) if hasattr(self.d, 'CaseExpression') else (a != b)

    def arith(self, op, a, b):
        if op == 'FloorDiv':
            return self._f('floor', a / b)
        if op == 'Mod':
            return a - b * self._f('floor', a / b)  # Python's sign (the divisor's), as pandas
        if op == 'Pow':
            return self._f('pow', a, b)
        return _FL_ARITH[getattr(ast, op)](a, b)

    def isin(self, a, vals):
        if not vals:
            return self.d.CaseExpression(a.isnull(), self.lit(None)).otherwise(self.lit(False))
        return a.isin(*[self.lit(v) for v in vals])

    def isnull(self, a):
        return a.isnull()

    def contains(self, a, pat, case, regex):
        if regex:
            return self._f('regexp_matches', a, self.lit(pat), self.lit('' if case else 'i'))
        if not case:
            return self._f('contains', self._f('lower', a), self._f('lower', self.lit(pat)))
        return self._f('contains', a, self.lit(pat))

    def affix(self, a, p, start):
        return self._f('starts_with' if start else 'ends_with', a, self.lit(p))

    def strfn(self, a, m):
        return self._f({'len': 'length', 'lower': 'lower', 'upper': 'upper', 'strip': 'trim'}[m], a)


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
