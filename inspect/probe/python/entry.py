# dapscope Python probe: the entry points the sidecar calls (run, summarize,
# select), each with the debugger's trace function paused.

class _Quiet(object):
    """numpy's floating-point warnings off while the probe runs (numpy's
    errstate, only when the program has numpy loaded): a column holding
    +inf and -inf, or spanning past float64's range, must not print a
    RuntimeWarning on the program's stderr."""

    def __enter__(self):
        np = sys.modules.get('numpy')
        self.es = np.errstate(all='ignore') if np is not None else None
        if self.es is not None:
            self.es.__enter__()

    def __exit__(self, *exc):
        if self.es is not None:
            self.es.__exit__(*exc)


def run(L, G, args_json):
    """Inspect the value at args.path in a frame (L: the frame's names as
    pydevd exposes them, G: its globals). Returns one JSON string.

    The debugger's trace function is paused on this thread while the probe
    runs (it would see every call of the probe) and restored afterwards."""
    tracer = sys.gettrace()
    settrace = _raw_settrace()
    if tracer is not None:
        settrace(None)
    try:
        with _Quiet():
            return _run(L, G, args_json)
    finally:
        _scratch_release()
        if tracer is not None:
            settrace(tracer)


def summarize(L, G, args_json):
    """One-line summaries of many values (args.names: paths; absent: every
    local), running no user code, bounded by args.timeout. One JSON string."""
    tracer = sys.gettrace()
    settrace = _raw_settrace()
    if tracer is not None:
        settrace(None)
    try:
        with _Quiet():
            return _summarize(L, G, args_json)
    except Exception as e:
        return json.dumps({'error': {'code': 'INTERNAL', 'message': 'summaries failed: %s: %s' % (_short(type(e)), str(e)[:300])}}, default=str)
    finally:
        _scratch_release()
        if tracer is not None:
            settrace(tracer)


def select(L, G, args_json):
    """A page of rows of a table-like value: args.selection = {columns,
    rows: {offset, limit}, sort: [{column, descending}], filter}; args.gen
    is the stop (a new one drops the cached orders). One JSON string."""
    tracer = sys.gettrace()
    settrace = _raw_settrace()
    if tracer is not None:
        settrace(None)
    try:
        with _Quiet():
            return _select(L, G, args_json)
    except _ProbeError as e:
        err = {'code': e.code, 'message': e.message}
        if e.hint:
            err['hint'] = e.hint
        if e.available:
            err['available_variables'] = e.available
        return json.dumps({'error': err}, default=str)
    except Exception as e:
        return json.dumps({'error': {'code': 'INTERNAL', 'message': 'selection failed: %s: %s' % (_short(type(e)), str(e)[:300])}}, default=str)
    finally:
        _scratch_release()
        if tracer is not None:
            settrace(tracer)


def _raw_settrace():
    """sys.settrace as it was before pydevd wrapped it: the wrapper writes a
    "sys.settrace() should not be used" warning into the user's console."""
    m = sys.modules.get('pydevd_tracing')
    holder = getattr(m, 'TracingFunctionHolder', None) if m is not None else None
    return getattr(holder, '_original_tracing', None) or sys.settrace


def _run(L, G, args_json):
    t0 = time.perf_counter()
    try:
        args = json.loads(args_json)
        path = [tuple(p) for p in args['path']]
        opts = args.get('opts') or {}
        _set_precision(opts.get('precision') == 'full', _CELL)
        B = _Budget(float(opts.get('timeout', 2.0)))
        obj = _resolve(L, G, path)
        res = {'name': _path_str(path), 'warnings': [], 'source': 'probe'}
        try:
            _inspect(obj, opts, B, res)
        except _ProbeError:
            raise
        except Exception as e:
            res['warnings'].append('inspection failed part way: %s: %s' % (_short(type(e)), _cut(str(e), 200, _Trunc())))
            res['partial'] = True
        if B.timed_out:
            res['partial'] = True
            res['timed_out'] = B.timed_out
        res['probe_ms'] = round((time.perf_counter() - t0) * 1000, 3)
        return _dumps(_clean(res))
    except _ProbeError as e:
        err = {'code': e.code, 'message': e.message}
        if e.hint:
            err['hint'] = e.hint
        if e.available:
            err['available_variables'] = e.available
        return json.dumps({'error': err}, default=str)
    except KeyboardInterrupt:
        return json.dumps({'error': {'code': 'INSPECTION_TIMEOUT', 'message': 'the probe was interrupted'}})
    except Exception as e:
        return json.dumps({'error': {'code': 'INTERNAL', 'message': 'probe failed: %s: %s' % (_short(type(e)), str(e)[:300])}}, default=str)
