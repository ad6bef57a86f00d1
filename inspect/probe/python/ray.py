# dapscope Python probe: Ray Data Datasets (ray.data.Dataset, and the
# MaterializedDataset that materialize() returns). Free (nothing executes):
# the schema when Ray knows it without running the plan
# (schema(fetch_if_missing=False): a map's output schema is unknown until
# it runs), the blocks (a MaterializedDataset's num_blocks(), else the
# plan's initial blocks), the rows and bytes when the plan's metadata
# knows them (_meta_count: a read or from_* knows, a filter does not), the
# logical plan. Only with `compute`, within the time budget: ONE
# aggregate (the count, each column's non-null count, min, max, mean and
# std with ddof=1 of the numeric ones) and the preview's take(): run by
# Ray on the cluster, labelled "computed by Ray". Only these bounded
# results come back to the driver: a Dataset is never collected whole.
# Ray cannot cancel an execution it started: one still running at the
# budget's end runs on (the result says so), and the next inspection of
# the dataset with compute waits for it and takes its result. Each Ray
# Data execution has a fixed start-up cost (seconds on a small, busy
# machine), so a first compute may not fit the budget where a later one
# does. Pages (browsing) are a filter (Ray's own expressions, evaluated by
# Arrow where the blocks live), then limit(): sorts are refused (a sort is
# a shuffle of the whole dataset).

# ---------------------------------------------------------------- ray


def _ray_schema(ds):
    """(names, pyarrow types) of the schema Ray knows without running the
    plan, or None."""
    try:
        s = ds.schema(fetch_if_missing=False)
    except Exception:
        return None
    if s is None:
        return None
    return [str(n) for n in s.names], list(s.types)


def _ray_kind(t):
    pa = _mod('pyarrow')
    if pa is not None and isinstance(t, pa.DataType):
        return _pa_kind(pa, t)
    s = str(t)
    for k, names in (('int', ('int', 'uint')), ('float', ('float', 'double')), ('bool', ('bool',)), ('str', ('str', 'object'))):
        if any(s.startswith(n) for n in names):
            return k
    return 'other'


def _ray_free(ds, res):
    """The facts Ray knows without executing: blocks, rows, bytes, plan,
    materialized."""
    lp = ds._logical_plan
    blocks = None
    try:
        blocks = int(ds.num_blocks()) if _is(ds, 'ray.data.dataset', 'MaterializedDataset') else int(lp.initial_num_blocks())
    except Exception:
        pass
    rows = size = None
    try:
        rows = ds._meta_count()
        size = lp.dag.infer_metadata().size_bytes
    except Exception:
        pass
    plan = None
    try:
        plan = _cut(str(lp.dag.dag_str), 4000, _Trunc())
    except Exception:
        pass
    facts = dict(name='ray', lazy=not _is(ds, 'ray.data.dataset', 'MaterializedDataset'), plan=plan, partitions=blocks,
                 cluster=_ray_cluster())
    return rows, size, facts


def _ray_structure(res, rows, cols, size):
    """structure from what is known now, keeping structure.engine."""
    eng = res.get('structure', {}).get('engine')
    _eng_structure(res, rows, cols, size)
    if eng is not None:
        res['structure']['engine'] = eng


def _ray_cluster():
    """The cluster's GCS address the driver is connected to."""
    try:
        w = _mod('ray._private.worker')
        node = w.global_worker.node if w is not None else None
        return str(node.gcs_address) if node is not None else None
    except Exception:
        return None


_RAY_RUNS = {}  # (id(dataset), what) -> a run still going when its inspection's budget ended


class _RayRun(object):
    """Runs f() in a thread of its own, waiting at most until the budget's
    deadline, progress bars off. Ray has no cancellation: a run still going
    at the deadline is kept (_RAY_RUNS), and the next inspection of the
    same dataset waits for it and takes its result instead of starting
    another (so retries converge, and never pile up on the cluster)."""

    def __init__(self, B):
        self.B, self.t0, self.runs, self.late = B, time.perf_counter(), 0, False

    def __call__(self, ds, what, f, sig=None):
        if not self.B.ok(what):
            return None
        key = (id(ds), what, sig)
        held = _RAY_RUNS.pop(key, None)
        if held is not None and held['ds'] is ds:
            th, out = held['th'], held['out']
        else:
            out = {}

            def run():
                try:
                    out['v'] = f()
                except BaseException as e:  # reported below
                    out['e'] = e
            th = threading.Thread(target=run, name='dapscope-ray', daemon=True)
            ctx = getattr(ds, '_context', None)
            bars = getattr(ctx, 'enable_progress_bars', None)
            if bars is not None:
                ctx.enable_progress_bars = False
            try:
                th.start()
            finally:
                if bars is not None:  # Ray reads it as the execution starts
                    out['restore'] = (ctx, bars)
            self.runs += 1
        th.join(max(0.05, self.B.deadline - time.perf_counter()))
        if th.is_alive():
            self.late = True
            _RAY_RUNS[key] = {'ds': ds, 'th': th, 'out': out}
            if what not in self.B.timed_out:
                self.B.timed_out.append(what)
            return None
        if 'restore' in out:
            c, b = out.pop('restore')
            c.enable_progress_bars = b
        if 'e' in out:
            raise out['e']
        return out['v']

    def note(self):
        return 'computed by Ray: %d execution%s, %.3g s' % (self.runs, '' if self.runs == 1 else 's', time.perf_counter() - self.t0)


def _inspect_ray_dataset(ds, opts, B, res):
    sch = _ray_schema(ds)
    rows, size, facts = _ray_free(ds, res)
    cols = [_EngCol(n, str(t), _ray_kind(t)) for n, t in zip(*sch)] if sch else []
    _eng_structure(res, rows, cols, size)
    _eng_engine(res, **facts)
    if sch is None:
        res['warnings'].append('schema not known until the plan runs (inspect with compute to run it)')
    if not opts.get('compute'):
        return
    agg = _mod('ray.data.aggregate') or __import__('ray.data.aggregate', fromlist=['Count'])
    run = _RayRun(B)
    stats = bool(opts.get('include_statistics', True))
    try:
        if sch is None:  # the schema needs one execution (Ray fetches it so)
            s = run(ds, 'ray.schema', lambda: ds.schema(fetch_if_missing=True))
            if s is None:
                return
            cols = [_EngCol(str(n), str(t), _ray_kind(t)) for n, t in zip(s.names, s.types)]
            res['warnings'] = [w for w in res['warnings'] if not w.startswith('schema not known')]
        aggs, keys = [agg.Count()], [('n', None)]
        for i, c in enumerate(cols):
            aggs.append(agg.Count(c.name, ignore_nulls=True))
            keys.append(('valid', i))
            if stats and i < _STAT_COLUMNS and c.kind in ('int', 'float'):
                for k, f in (('min', agg.Min), ('max', agg.Max), ('mean', agg.Mean), ('std', agg.Std)):
                    aggs.append(f(c.name))
                    keys.append((k, i))
        got = run(ds, 'ray.aggregate', lambda: ds.aggregate(*aggs), tuple(keys))
        if got is None:
            _ray_structure(res, rows, cols, size)
            return
        vals = list(got.values()) if isinstance(got, dict) else [got]
        n = int(vals[0])
        for (k, i), v in zip(keys[1:], vals[1:]):
            c = cols[i]
            if k == 'valid':
                c.nulls = n - int(v or 0)
            else:
                c.agg[k] = None if v is None or (isinstance(v, float) and v != v) else (v.item() if hasattr(v, 'item') else v)
        for c in cols:
            if c.kind in ('int', 'float') and c.agg:
                c.agg['finite'] = n - (c.nulls or 0)
        _ray_structure(res, n, cols, size)
        r, _ = _eng_tail_n(n, opts)
        names = [c.name for c in cols]
        head = run(ds, 'ray.take', lambda: ds.take(r), r)
        if head is not None:
            _eng_preview(res, names, [tuple(row.get(x) for x in names) for row in head], None, n, opts)
        if stats:
            _eng_statistics(res, cols, n, B, opts)
    finally:
        if run.late:
            res['partial'] = True
            res['warnings'].append('Ray did not finish within the time budget: that execution runs on, and the next inspection with compute takes its result')
        note = run.note()
        _eng_engine(res, computed=note)
        if 'statistics' in res:
            res['statistics']['computed'] = note


_ENGINE_INSPECT.update(ray_dataset=_inspect_ray_dataset)


# ---------------------------------------------------------------- ray pages

class _FBRay(_FBPolars):
    """Ray Data's expressions (ray.data.expressions: col, lit, operators,
    is_in, is_null, .str), evaluated by Arrow in the blocks' workers."""

    def __init__(self, ex):
        self.ex = ex

    def col(self, name):
        return self.ex.col(name)

    def lit(self, v):
        return self.ex.lit(v)

    def xor(self, a, b):
        return (a & ~b) | (~a & b)

    def neg(self, a):
        return a.negate()

    def arith(self, op, a, b):
        if op == 'Pow':
            return a.power(b)
        return _FL_ARITH[getattr(ast, op)](a, b)

    def isin(self, a, vals):
        return a.is_in(list(vals))

    def no_dup(self, keep):
        return ('duplicated() is not computed over a Ray Dataset: its blocks have no row order, and comparing '
                'rows across blocks is a full shuffle')

    def isnull(self, a):
        return a.is_null()

    def contains(self, a, pat, case, regex):
        if regex:
            return a.str.match_regex(pat if case else '(?i)' + pat)
        return a.str.contains(pat, ignore_case=not case)

    def affix(self, a, p, start):
        return a.str.starts_with(p) if start else a.str.ends_with(p)

    def strfn(self, a, m):
        s = a.str
        return {'len': s.len, 'lower': s.lower, 'upper': s.upper, 'strip': s.strip}[m]()


def _ray_page(ds, kind, sel, off, lim, B):
    if sel.get('sort'):
        raise _ProbeError('INVALID_ARGUMENT', 'a Ray Dataset is not browsed sorted: a sort shuffles the whole dataset',
                          'filter it instead, or sort it in your program (ds.sort(...)) and browse that')
    ex = _mod('ray.data.expressions') or __import__('ray.data.expressions', fromlist=['col'])
    sch = _ray_schema(ds)
    run = _RayRun(B)
    if sch is None:
        s = run(ds, 'ray.schema', lambda: ds.schema(fetch_if_missing=True))
        if s is None:
            raise _ProbeError('INSPECTION_TIMEOUT', 'Ray did not give the schema within the time budget', 'browse again with a longer timeout')
        sch = [str(n) for n in s.names], list(s.types)
    names, types = sch
    kinds = dict((n, _ray_kind(t)) for n, t in zip(names, types))
    cols = [names[i] for i in _sel_columns(_EngNames(names), sel.get('columns'))]
    flt = sel.get('filter')
    view = ds.filter(expr=_fl_compile(flt, kinds, _FBRay(ex))) if flt else ds  # refused before anything runs
    n = ds._meta_count()
    if n is None:
        n = run(ds, 'ray.count', ds.count)
    total = n if not flt else run(ds, 'ray.count', view.count, flt)
    got = run(ds, 'ray.page', lambda: view.limit(off + lim).take_all(), (flt, off + lim))
    if got is None or n is None or total is None:
        raise _ProbeError('INSPECTION_TIMEOUT', 'Ray did not finish the page within the time budget: %s' % run.note(),
                          'browse again with a longer timeout, or filter first')
    rows = [tuple(r.get(c) for c in cols) for r in got[off:off + lim]]
    return {'names': cols, 'dtypes': [str(types[names.index(c)]) for c in cols], 'all_rows': int(n), 'total': int(total),
            'na': 0, 'rows': rows, 'positions': list(range(off, off + len(rows))), 'column_count': len(names),
            'computed': run.note()}


_ENGINE_PAGE.update(ray_dataset=_ray_page)
