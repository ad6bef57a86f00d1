# dapscope Python probe: Spark DataFrames (pyspark.sql). Free, always: the
# schema, the partitions and the physical plan (no job runs). Counts,
# statistics and the preview run Spark jobs only within the time budget:
# ONE agg (count, nulls, min, max, mean, stddev_samp, zeros, true counts,
# string lengths, exact countDistinct per column and of the rows (a struct
# of every column: duplicate rows), percentile_approx), then bounded
# follow-ups (a GROUP BY per text column for top values, the 10-bin
# histograms of every numeric column in one agg, the preview's limit and
# tail). The jobs run in a job group of
# their own, cancelled when the budget ends; the result names them
# ("computed by Spark: 4 jobs, 1.4 s"). Nothing collects a frame whole:
# every collect is an aggregate, a limit or a tail.

# ---------------------------------------------------------------- spark


def _sp_kind(t):
    n = type(t).__name__
    if n in ('ByteType', 'ShortType', 'IntegerType', 'LongType'):
        return 'int'
    if n in ('FloatType', 'DoubleType', 'DecimalType'):
        return 'float'
    if n == 'BooleanType':
        return 'bool'
    if n in ('StringType', 'VarcharType', 'CharType'):
        return 'str'
    if n in ('TimestampType', 'TimestampNTZType', 'DateType'):
        return 'datetime'
    return 'other'


class _SpJobs(object):
    """Spark jobs run in a job group of their own (counted, and cancelled
    when the budget ends); the thread's previous group is restored."""

    def __init__(self, spark, B):
        self.sc = spark.sparkContext
        self.group = 'dapscope-%x' % id(self)
        self.t0 = time.perf_counter()
        self.old = [self.sc.getLocalProperty(k) for k in ('spark.jobGroup.id', 'spark.job.description', 'spark.job.interruptOnCancel')]
        self.sc.setJobGroup(self.group, 'dapscope inspection (read-only)', True)
        left = max(0.05, B.deadline - time.perf_counter())
        self.timer = threading.Timer(left, self.sc.cancelJobGroup, (self.group,))
        self.timer.daemon = True
        self.timer.start()

    def close(self):
        self.timer.cancel()
        for k, v in zip(('spark.jobGroup.id', 'spark.job.description', 'spark.job.interruptOnCancel'), self.old):
            self.sc.setLocalProperty(k, v)
        try:
            n = len(self.sc.statusTracker().getJobIdsForGroup(self.group))
        except Exception:
            n = None
        took = time.perf_counter() - self.t0
        return 'computed by Spark: %s, %.3g s' % ('%d job%s' % (n, '' if n == 1 else 's') if n is not None else 'jobs', took)


def _sp_free_facts(df, res):
    """Schema, partitions and the physical plan: no job runs."""
    plan, parts = None, None
    try:
        plan = _cut(str(df._jdf.queryExecution().executedPlan().toString()), 4000, _Trunc())
    except Exception:
        pass
    try:
        parts = int(df.rdd.getNumPartitions())  # the RDD is planned, not run
    except Exception:
        pass
    master = None
    try:
        master = str(df.sparkSession.sparkContext.master)
    except Exception:
        pass
    _eng_engine(res, name='spark', lazy=True, plan=plan, partitions=parts, cluster=master)


def _inspect_spark(df, opts, B, res):
    F = _mod('pyspark.sql.functions') or __import__('pyspark.sql.functions', fromlist=['col'])
    fields = df.schema.fields
    cols = [_EngCol(str(f.name), f.dataType.simpleString(), _sp_kind(f.dataType)) for f in fields]
    for c in cols:
        c.clues = True  # countDistinct is exact: repeated values and keys
    _eng_structure(res, None, cols)
    _sp_free_facts(df, res)
    if not B.ok('spark.jobs'):
        res['warnings'].append('no Spark job ran: the time budget was spent')
        return
    jobs = _SpJobs(df.sparkSession, B)
    try:
        _sp_facts(F, df, cols, opts, B, res)
    except Exception as e:
        if not B.ok('spark.jobs'):
            res['warnings'].append('Spark jobs cancelled at the time budget (%s)' % _short(type(e)))
            res['partial'] = True
        else:
            raise
    finally:
        note = jobs.close()
        _eng_engine(res, computed=note)
        if 'statistics' in res:
            res['statistics']['computed'] = note


def _sp_facts(F, df, cols, opts, B, res):
    stats = bool(opts.get('include_statistics', True))
    aggs = [F.count(F.lit(1)).alias('n')]
    for i, c in enumerate(cols):
        q = F.col('`%s`' % c.name.replace('`', '``'))
        a = lambda e, k: e.alias('%d:%s' % (i, k))
        aggs.append(a(F.count(F.lit(1)) - F.count(q), 'null'))
        if not stats or i >= _STAT_COLUMNS:
            continue
        if c.kind in ('int', 'float'):
            fin = F.when(~F.isnan(q) & (F.abs(q) != float('inf')), q) if c.kind == 'float' else q
            # distinct: the values that are not NaN (finite, and the infinities), as pandas' nunique
            aggs += [a(F.min(fin), 'min'), a(F.max(fin), 'max'), a(F.avg(fin.cast('double')), 'mean'),
                     a(F.stddev_samp(fin.cast('double')), 'std'), a(F.count(F.when(fin == 0, 1)), 'zeros'),
                     a(F.count(fin), 'finite'), a(F.countDistinct(F.when(~F.isnan(q), q) if c.kind == 'float' else q), 'distinct'),
                     a(F.percentile_approx(fin, [0.05, 0.25, 0.5, 0.75, 0.95], 10000), 'pct')]
            if c.kind == 'float':
                aggs += [a(F.count(F.when(F.isnan(q), 1)), 'nan'), a(F.count(F.when(F.abs(q) == float('inf'), 1)), 'inf')]
        elif c.kind == 'bool':
            aggs.append(a(F.count(F.when(q, 1)), 'true'))
        elif c.kind == 'str':
            ln = F.length(q)
            aggs += [a(F.countDistinct(q), 'distinct'), a(F.min(ln), 'lmin'), a(F.max(ln), 'lmax'), a(F.avg(ln), 'lmean')]
        elif c.kind == 'datetime':
            aggs += [a(F.min(q), 'min'), a(F.max(q), 'max'), a(F.countDistinct(q), 'dt_distinct')]
    other = [c for c in cols if c.kind == 'other']
    if stats and not other:  # the distinct rows: a struct of every column (never null; its nulls equal, as pandas')
        aggs.append(F.countDistinct(F.struct(*[F.col('`%s`' % c.name.replace('`', '``')) for c in cols])).alias('rows'))
    row = df.agg(*aggs).collect()[0].asDict()
    n = int(row.pop('n'))
    distinct_rows = row.pop('rows', None)
    for key, v in row.items():
        i, k = key.split(':', 1)
        c = cols[int(i)]
        if k == 'null':
            c.nulls = int(v)
        else:
            c.agg[k] = float(v) if k in ('min', 'max') and c.kind == 'float' and v is not None else v
    res['structure']['shape'][0] = n
    for e, c in zip(res['structure']['columns'], cols):
        e['null_count'] = int(c.nulls)
    rows, tail_n = _eng_tail_n(n, opts)
    names = [c.name for c in cols]
    head = [tuple(r) for r in df.limit(rows).collect()] if B.ok('preview') else []
    tail = [tuple(r) for r in df.tail(tail_n)] if tail_n and B.ok('preview.tail') else None
    _eng_preview(res, names, head, tail, n, opts)
    if not stats:
        return
    for i, c in enumerate(cols[:_STAT_COLUMNS]):
        if not B.ok('statistics.columns[%d:]' % i):
            break
        q = F.col('`%s`' % c.name.replace('`', '``'))
        if c.kind in ('str', 'other'):
            try:
                top = df.where(q.isNotNull()).groupBy(q.alias('v')).count().orderBy(F.desc('count'), F.asc('v')).limit(5).collect()
                c.top = [(r[0], r[1]) for r in top]
            except Exception:
                pass
            if c.agg.get('lmin') is not None:
                c.str_len = (c.agg['lmin'], c.agg['lmax'], c.agg['lmean'])
    if B.ok('statistics.histograms'):
        _sp_histograms(F, df, [(i, c) for i, c in enumerate(cols[:_STAT_COLUMNS]) if c.kind in ('int', 'float') and c.agg.get('finite')])

    def count_rows():  # counted in the one agg's job
        if distinct_rows is None:
            raise _EngNotComputed('column %s (%s) is not compared by Spark here' % (other[0].name, other[0].dtype))
        return distinct_rows
    _eng_statistics(res, cols, n, B, opts, distinct_rows=count_rows, rows_free=distinct_rows is not None)


def _sp_histograms(F, df, cols):
    """The 10 equal bins between min and max of every numeric column,
    counted by Spark in ONE agg (one job for all of them); the quantiles
    come from percentile_approx."""
    aggs, specs = [], []
    for i, c in cols:
        lo, hi = float(c.agg['min']), float(c.agg['max'])
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        step = (hi - lo) / 10.0
        x = F.col('`%s`' % c.name.replace('`', '``')).cast('double')
        fin = ~F.isnan(x) & (F.abs(x) != float('inf')) & x.isNotNull()
        b = F.when(fin, F.least(F.floor((x - F.lit(lo)) / F.lit(step)), F.lit(9)).cast('int'))
        aggs += [F.count(F.when(b == k, 1)).alias('%d:%d' % (i, k)) for k in range(10)]
        specs.append((i, c, lo, step))
    if not aggs:
        return
    row = df.agg(*aggs).collect()[0].asDict()
    for i, c, lo, step in specs:
        c.agg['hist'] = {'start': _num(lo, _STAT), 'width': _num(step, _STAT), 'counts': [int(row['%d:%d' % (i, k)]) for k in range(10)]}


_ENGINE_INSPECT.update(spark_df=_inspect_spark)


class _FBSpark(_FBPolars):
    """Spark Columns: names with backticks (the frame's own column, df[name]:
    one call into the JVM where col() makes several), literals through
    lit() (values in the plan, never SQL text)."""

    def __init__(self, F, df=None):
        self.F, self.df = F, df
        self.cols = {}  # one Column per name (each is a call into the JVM)
        self.derived = []  # (column name, window Column): duplicated(), added before the filter

    def col(self, name):
        c = self.cols.get(name)
        if c is None:
            q = '`%s`' % name.replace('`', '``')
            c = self.cols[name] = self.df[q] if self.df is not None else self.F.col(q)
        return c

    def lit(self, v):
        return self.F.lit(v)

    def cmp(self, op, a, b):
        return _sp_op(a, _SP_CMP[op], b) if op in _SP_CMP else _FBPolars.cmp(self, op, a, b)

    def and_(self, a, b):
        return _sp_op(a, 'and', b)

    def or_(self, a, b):
        return _sp_op(a, 'or', b)

    def arith(self, op, a, b):
        F = self.F
        if op == 'FloorDiv':
            return F.floor(a / b)
        if op == 'Mod':
            return a - b * F.floor(a / b)  # Python's sign (the divisor's), as pandas
        if op == 'Pow':
            return F.pow(a, b)
        return _FL_ARITH[getattr(ast, op)](a, b)

    def xor(self, a, b):
        return (a | b) & ~(a & b)

    def isin(self, a, vals):
        return a.isin(*vals) if vals else self.F.when(a.isNull(), self.F.lit(None)).otherwise(self.F.lit(False))

    def isnull(self, a):
        return _sp_op(a, 'isNull')

    def contains(self, a, pat, case, regex):
        F = self.F
        if regex:
            return a.rlike(('(?i)' if not case else '') + pat)
        return F.lower(a).contains(pat.lower()) if not case else a.contains(pat)

    def affix(self, a, p, start):
        return a.startswith(p) if start else a.endswith(p)

    def no_dup(self, keep):
        if keep is not False:
            return ("duplicated(keep=%r) needs a row order, which a Spark frame has not (keep=False is computed: "
                    "a count over a window per key)" % keep)
        return None

    def duplicated(self, keys, labels, keep):
        """keep=False: more than one row holds the keys (Spark's window per
        key: nulls equal, NaN equal NaN, as pandas), a column of its own (a
        window is not allowed in WHERE)."""
        W = __import__('pyspark.sql.window', fromlist=['Window']).Window
        name = '__dapscope_dup%d' % len(self.derived)
        self.derived.append((name, self.F.count(self.F.lit(1)).over(W.partitionBy(*keys)) > 1))
        return self.F.col(name)

    def strfn(self, a, m):
        return {'len': self.F.length, 'lower': self.F.lower, 'upper': self.F.upper, 'strip': self.F.trim}[m](a)


_SP_CMP = {'Gt': 'gt', 'GtE': 'geq', 'Lt': 'lt', 'LtE': 'leq', 'Eq': 'equalTo', 'NotEq': 'notEqual'}
# the Column methods of the JVM's Column methods (_sp_op without a JVM column)
_SP_PY = {'gt': '__gt__', 'geq': '__ge__', 'lt': '__lt__', 'leq': '__le__', 'equalTo': '__eq__', 'notEqual': '__ne__',
          'and': '__and__', 'or': '__or__', 'as': 'alias'}


def _sp_op(c, name, *args):
    """c.name(*args) asked of the JVM's Column itself: one call into the
    JVM, where a PySpark Column method first records the caller's code as
    the query's origin (about ten calls); the PySpark method where a Column
    has no JVM object (Spark Connect builds its plan in Python)."""
    jc = getattr(c, '_jc', None)
    if jc is None:
        return getattr(c, _SP_PY.get(name, name))(*args)
    return type(c)(getattr(jc, name)(*[getattr(a, '_jc', a) for a in args]))


def _sp_nullable(df, expr):
    """Whether a filter can be null on df's rows (Spark's analysis, no
    job); True when it cannot tell."""
    try:
        return bool(df.select(expr.alias('__dapscope_f')).schema.fields[0].nullable)
    except Exception:
        return True


def _sp_page(df, kind, sel, off, lim, B):
    """A page computed by Spark: filter, orderBy (nulls last; ties broken
    by every column, as Spark has no row order), offset, limit: the rows of
    the page are all that is collected. A Spark frame has no row positions:
    positions are the rows' places in the filtered, sorted view."""
    F = __import__('pyspark.sql.functions', fromlist=['col'])
    schema = df.schema  # asked of the JVM once
    names = [str(f.name) for f in schema.fields]
    kinds = dict((str(f.name), _sp_kind(f.dataType)) for f in schema.fields)
    types = dict((str(f.name), f.dataType.simpleString()) for f in schema.fields)
    cols = [names[i] for i in _sel_columns(_EngNames(names), sel.get('columns'))]
    flt, sort = sel.get('filter'), sel.get('sort') or []
    b = _FBSpark(F, df)
    expr = _fl_compile(flt, kinds, b) if flt else None
    if b.derived:
        df = df.withColumns(dict(b.derived))
    count = bool(sel.get('count'))
    out = {'names': cols, 'dtypes': [types[x] for x in cols], 'all_rows': None, 'total': None, 'na': 0, 'rows': [],
           'positions': [], 'column_count': len(names)}
    if not count:
        # the page first: its totals are a job of their own (every row
        # read, beside or inside the page's), counted on request
        out['pending'] = _SP_PENDING
        if not lim:
            return out  # the columns alone: no job
    jobs = _SpJobs(df.sparkSession, B)
    try:
        q = df
        got, th, obs, obs2 = {}, None, None, None
        rows_n = F.count(F.lit(1))
        n_all = _sp_op(rows_n, 'as', 'n')
        if count and sort and lim:
            # a sorted page reads every row of every partition (Spark's top-N,
            # or its sort): the counts are observed in that same job, the rows
            # before the filter and those after it; the unknown rows only where
            # Spark's analysis says the filter can be null
            Obs = __import__('pyspark.sql', fromlist=['Observation']).Observation
            obs = Obs('dapscope_page')
            seen = [n_all]
            if expr is not None and _sp_nullable(df, expr):
                seen.append(_sp_op(F.count(F.when(_sp_op(expr, 'isNull'), 1)), 'as', 'na'))
            q = q.observe(obs, *seen)
            if expr is not None:
                obs2 = Obs('dapscope_page_matches')
                q = q.where(expr).observe(obs2, _sp_op(rows_n, 'as', 't'))
        elif count:
            # a plain page reads only its rows: the counts' job runs beside
            # the page's (a thread that inherits the job group); the count
            # alone (rows.limit 0) runs here
            counts = [n_all]
            if expr is not None:
                counts += [F.count(F.when(expr, 1)).alias('t'), F.count(F.when(expr.isNull(), 1)).alias('na')]

            def count_rows():
                try:
                    got['c'] = df.agg(*counts).collect()[0].asDict()
                except Exception as e:
                    got['e'] = e
            if lim:
                th = __import__('pyspark').InheritableThread(target=count_rows)
                th.start()
            else:
                count_rows()
        if expr is not None and obs2 is None:
            q = q.where(expr)
        if sort:
            by = _eng_sort_names(names, sort)
            keys = [_sp_op(b.col(x), 'desc_nulls_last' if k.get('descending') else 'asc_nulls_last') for x, k in zip(by, sort)]
            q = q.orderBy(*(keys + [_sp_op(b.col(x), 'asc_nulls_last') for x in names if x not in by and kinds[x] != 'other']))
        if cols != names or b.derived:  # all columns: no projection to analyse
            q = q.select(*[b.col(x) for x in cols])
        rows = [tuple(r) for r in (q.offset(off) if off else q).limit(lim).collect()] if lim else []
        if th is not None:
            th.join()
        if 'e' in got:
            raise got['e']
        if count:
            c = got['c'] if obs is None else dict(obs.get, **(obs2.get if obs2 is not None else {}))
            out.update(all_rows=int(c['n']), total=int(c.get('t', c['n'])), na=int(c.get('na', 0)))
    except Exception as e:
        if not B.ok('spark.jobs'):
            raise _ProbeError('INSPECTION_TIMEOUT', 'Spark jobs cancelled at the time budget (%s)' % _short(type(e)),
                              'a longer timeout, or a filter that lets Spark read less')
        raise
    finally:
        note = jobs.close()
    out.update(rows=rows, positions=list(range(off, off + len(rows))), computed=note)
    return out


_SP_PENDING = 'counted on request: every row read by a Spark job of its own'


_ENGINE_PAGE.update(spark_df=_sp_page)
