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
    have lists the ones it has (read from information_schema, bound). While
    a page resolves its value, the same name of the same connection gives
    the same relation all the stop (kept in select.py's cache, dropped with
    it), so what its pages keep (duckdb_page.py) serves the next page."""
    key = (id(con), 'duckdb-table', name)
    hit = _SEL['cache'].get(key) if _SEL.get('resolving') else None
    if hit is not None and _sel_same(hit, con, None):
        _SEL['tick'] += 1
        hit['tick'] = _SEL['tick']
        return hit['rel']
    rel = _dk_table_new(con, name, where)
    if _SEL.get('resolving'):
        _SEL['tick'] += 1
        _SEL['cache'][key] = {'order': _EngOrder((), 0), 'rel': rel, 'total': 0, 'full': True, 'na': 0, 'tick': _SEL['tick'],
                              'ref': _sel_hold(con), 'version': None}
    return rel


def _dk_table_new(con, name, where):
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


def _dk_derive(r, derived):
    """r (with "__dapscope_pos") with each duplicated() of a filter as a
    boolean column, computed by DuckDB's window functions over the row
    position: its keys projected first (as columns of our own names), then
    row_number() per key ordered by position > 1 (keep='first'; 'last':
    descending), or count(*) per key > 1 (keep=False). PARTITION BY holds
    nulls equal and NaN equal NaN, as pandas. The SQL text is our own
    quoted names only; the user's values are bound expression objects."""
    duckdb = _mod('duckdb')
    C, S = duckdb.ColumnExpression, duckdb.SQLExpression
    base = [C(c) for c in r.columns]
    keys, wins = [], []
    for i, (name, exprs, keep) in enumerate(derived):
        ks = ['__dapscope_k%d_%d' % (i, j) for j in range(len(exprs))]
        keys += [e.alias(k) for e, k in zip(exprs, ks)]
        part = 'PARTITION BY ' + ', '.join(_sql_ident(k) for k in ks)
        if keep is False:
            w = 'count(*) OVER (%s) > 1' % part
        else:
            w = 'row_number() OVER (%s ORDER BY "__dapscope_pos"%s) > 1' % (part, ' DESC' if keep == 'last' else '')
        wins.append(S(w).alias(name))
    r = r.project(*(base + keys))
    return r.project(*(base + wins))


class _FBDuck(_FBPolars):
    """DuckDB expression objects: names as ColumnExpression, literals as
    ConstantExpression (bound values), functions by name."""

    def __init__(self, duckdb):
        self.d = duckdb
        self.derived = []  # (column name, key expressions, keep): duplicated(), added by _dk_derive

    def duplicated(self, keys, labels, keep):
        name = '__dapscope_dup%d' % len(self.derived)
        self.derived.append((name, keys, keep))
        return self.d.ColumnExpression(name)

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

