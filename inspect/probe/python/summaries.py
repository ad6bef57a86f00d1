# dapscope Python probe: one-line summaries.
# One line per value for the editor's own views and agents' stop reports,
# many values per call. Unlike _inspect these run NO user code: a value is
# classified by its type's MRO only; builtins are shown by value, known
# library types (pandas, numpy, torch, xarray, data engines) through
# their own cheap accessors, anything else by class name and attribute
# count (read from __dict__ without __getattribute__, __repr__ or __len__).

_SUM_STATS_LIMIT = _LIMITS['sum_stats_limit']  # elements above which stats are not computed
_SUM_STR = _LIMITS['sum_str']


def _type_is(t, prefix, name):
    for c in getattr(t, '__mro__', (t,)):
        try:
            if c.__name__ == name and (c.__module__ == prefix or c.__module__.startswith(prefix + '.')):
                return True
        except Exception:
            pass
    return False


def _sum_kind(t, obj=None):
    if t in (type(None), bool, int, float, complex):
        return 'scalar'
    if t in (str, bytes, bytearray):
        return 'text'
    if (t is dict or _type_is(t, 'collections', 'OrderedDict')) and _is_state_dict(obj):
        return 'state_dict'  # builtin mappings only: no user items() runs
    if t in (list, tuple, dict, set, frozenset):
        return 'container'
    for prefix, name, kind in (('pandas', 'DataFrame', 'dataframe'), ('pandas', 'Series', 'series'),
                               ('pandas', 'Index', 'index'), ('numpy', 'ndarray', 'ndarray'),
                               ('numpy', 'generic', 'numpy_scalar'), ('torch', 'Tensor', 'tensor'),
                               ('torch.nn', 'Module', 'model'),
                               ('xarray', 'DataArray', 'dataarray'), ('xarray', 'Dataset', 'dataset')):
        if _mod(prefix) is not None and _type_is(t, prefix, name):
            return kind
    for mod, checks in _ENGINE_TYPES:  # data engines (engines.py)
        for prefix, name, kind in checks if _mod(mod) is not None else ():
            if _type_is(t, prefix, name):
                return kind
    if t is type or _type_is(t, 'builtins', 'type'):
        return 'class'
    if t.__name__ in ('function', 'builtin_function_or_method', 'method', 'module'):
        return t.__name__ if t.__name__ == 'module' else 'function'
    return 'object'


def _plain_repr(obj, depth=0, budget=None):
    """repr of builtin values only: anything else is <ClassName>, so no
    user __repr__ runs. Bounded: 10 items per container, depth 2."""
    t = type(obj)
    if obj is None or t in (bool, int, float, complex):
        r = repr(obj)
        return r if len(r) <= _SUM_STR else r[:_SUM_STR] + _ELL
    if t in (str, bytes, bytearray):
        r = repr(obj[:_SUM_STR])
        return r + (_ELL if len(obj) > _SUM_STR else '')
    if t in (list, tuple, set, frozenset, dict):
        if depth >= 2:
            return '%s[%d]' % (t.__name__, len(obj))
        it = list(obj.items())[:10] if t is dict else [x for _, x in zip(range(10), obj)]
        if t is dict:
            parts = ['%s: %s' % (_plain_repr(k, depth + 1), _plain_repr(v, depth + 1)) for k, v in it]
        else:
            parts = [_plain_repr(x, depth + 1) for x in it]
        if len(obj) > 10:
            parts.append(_ELL)
        body = ', '.join(parts)
        if t is list:
            return '[' + body + ']'
        if t is tuple:
            return '(' + body + (',)' if len(obj) == 1 else ')')
        if t is dict:
            return '{' + body + '}'
        if not obj:
            return t.__name__ + '()'
        return ('{' + body + '}') if t is set else 'frozenset({' + body + '})'
    return '<%s>' % _short(t)


def _sum_value(obj, t):
    r = _plain_repr(obj)
    return r if len(r) <= _SUM_STR + 3 else r[:_SUM_STR] + _ELL


def _sum_nums(np, a, out):
    """NaN/inf counts and min/max of a numeric numpy array (bounded size;
    not booleans: 'min False max True' says nothing)."""
    if a.size == 0 or a.size > _SUM_STATS_LIMIT or a.dtype.kind not in 'iuf':
        return
    if a.dtype.kind == 'f':
        nan = int(np.isnan(a).sum())
        inf = int(np.isinf(a).sum())
        if nan:
            out['nan'] = nan
        if inf:
            out['inf'] = inf
        fin = a[np.isfinite(a)] if (nan or inf) else a
        if fin.size:
            out['min'], out['max'] = _num(fin.min()), _num(fin.max())
    else:
        out['min'], out['max'] = _exact(a.min()), _exact(a.max())


def _sum_one(obj):
    t = type(obj)
    kind = _sum_kind(t, obj)
    out = {'kind': kind, 'type': _tname(t)}
    np = _mod('numpy')
    if kind in ('scalar', 'text'):
        out['value'] = _sum_value(obj, t)
        if kind == 'text':
            out['len'] = len(obj)
    elif kind == 'container':
        out['len'] = len(obj)
        out['value'] = _sum_value(obj, t)
    elif kind == 'dataframe':
        out['shape'] = list(obj.shape)
        try:
            out['memory'] = _memory(obj, None, False)  # stable: no index lookup table (pandas.py)
            if any(getattr(d, 'kind', 'O') == 'O' for d in obj.dtypes.tolist()):
                out['memory_estimated'] = True  # object data not counted
        except Exception:
            pass
        if obj.size <= _SUM_STATS_LIMIT:
            nulls = obj.isna().sum()
            cols = [(_label(c)[0], int(n)) for c, n in nulls.items() if n]
            cols.sort(key=lambda x: -x[1])
            out['nulls'] = sum(n for _, n in cols)
            out['null_columns'] = cols[:3]
            out['null_column_count'] = len(cols)
    elif kind in ('series', 'index'):
        out['shape'] = [len(obj)]
        out['dtype'] = str(obj.dtype)
        if len(obj) <= _SUM_STATS_LIMIT:
            out['nulls'] = int(obj.isna().sum())
            if np is not None and kind == 'series' and obj.dtype.kind in 'biuf':
                _sum_nums(np, obj.to_numpy(), out)
    elif kind == 'ndarray':
        out['shape'] = list(obj.shape)
        out['dtype'] = str(obj.dtype)
        _sum_nums(np, obj, out)
    elif kind == 'numpy_scalar':
        out['value'] = _sum_value(_exact(obj), type(_exact(obj)))
        out['dtype'] = str(obj.dtype)
    elif kind == 'tensor':
        _tensor_sum(obj, out)
    elif kind == 'model':
        _model_sum(obj, out)
    elif kind == 'state_dict':
        out['len'] = len(obj)
        _model_sum(obj, out)
    elif kind == 'dataarray':
        out['shape'] = list(obj.shape)
        out['dtype'] = str(obj.dtype)
        out['dims'] = [[str(k), int(v)] for k, v in obj.sizes.items()]
        data = _xr_data(np, obj.variable) if np is not None else None
        if data is not None:  # dask or lazily loaded data is never computed
            _sum_nums(np, data, out)
    elif kind == 'dataset':
        out['dims'] = [[str(k), int(v)] for k, v in obj.sizes.items()]
        out['len'] = len(obj.data_vars)
    elif kind in _ENGINE_DETECTED:
        _eng_sum(obj, kind, out)
    elif kind == 'object':
        try:
            d = object.__getattribute__(obj, '__dict__')
            if type(d) is dict:
                out['attrs'] = len(d)
        except Exception:
            pass
    elif kind in ('function', 'class', 'module'):
        try:
            out['name_of'] = str(type.__getattribute__(obj, '__name__') if kind == 'class' else object.__getattribute__(obj, '__name__'))
        except Exception:
            pass
    return out


# IPython's caches in a kernel's namespace (the displayhook and history
# make them, unlisted in user_ns_hidden), and the tools it defines at start
# (listed there: hidden while the user has not rebound them).
_IPY_CACHES = frozenset(('_', '__', '___', '_i', '_ii', '_iii', '_ih', '_oh', '_dh', '_exit_code'))
_IPY_TOOLS = frozenset(('In', 'Out', 'get_ipython', 'exit', 'quit'))


def _ipy_cache_name(k):
    """_iN, _iiN… and _N: IPython's numbered input and output caches."""
    rest = k[1:].lstrip('i') if k.startswith('_i') else k[1:] if k.startswith('_') else ''
    return rest.isdigit() and rest.isascii()


def _ipython_shell(ns):
    """The IPython shell whose user namespace ns is (a Jupyter kernel's, or
    a cell's top level in its debugger), else None. Its get_ipython is a
    bound method of the shell: read, never called."""
    gi = ns.get('get_ipython') if type(ns) is dict else None
    if type(gi).__name__ != 'method':
        return None
    shell = getattr(gi, '__self__', None)
    return shell if _type_is(type(shell), 'IPython', 'InteractiveShell') else None


def _ipy_hidden(shell, k, v):
    """IPython's own name: a cache, a tool, or a name it defined at start
    and the user did not rebind (what %who leaves out)."""
    if k in _IPY_CACHES or _ipy_cache_name(k):
        return True
    hidden = getattr(shell, 'user_ns_hidden', None)
    if type(hidden) is not dict:
        return k in _IPY_TOOLS
    return k in hidden and hidden[k] is v


def _plumbing(t):
    """Modules, functions and classes: a namespace listing leaves them out."""
    return (t is type(sys) or issubclass(t, type) or
            t.__name__ in ('function', 'builtin_function_or_method', 'method'))


def _own_names(ns, everything):
    """The names of a namespace, dunders aside; an IPython namespace lists
    the user's variables only unless everything is asked."""
    shell = None if everything else _ipython_shell(ns)
    out = []
    for k in list(ns.keys()):
        if type(k) is not str or k.startswith('__'):
            continue
        if shell is not None:
            v = ns[k]
            if _ipy_hidden(shell, k, v) or _plumbing(type(v)):
                continue
        out.append(k)
    return out


def _frame_locals(L, G, everything=False):
    """The names of the frame's own locals. pydevd evaluates in a merged
    mapping (the frame's globals, its locals, and a 'globals' function it
    adds), so the frame is found on the stack (pydevd's evaluate_expression
    holds it as `frame`): its f_locals, or at module level its globals. A
    namespace evaluated as itself (L is G: a Jupyter kernel's
    user_expressions, a module's top level) is its own. If the frame
    cannot be found, a name bound to the very object of the same global is
    taken as the global."""
    f = sys._getframe(1)
    for _ in range(12):
        if f is None:
            break
        if f.f_code.co_name == 'evaluate_expression' and 'pydevd' in f.f_code.co_filename:
            frame = f.f_locals.get('frame')
            if frame is not None and hasattr(frame, 'f_locals'):
                own = frame.f_globals if frame.f_locals is frame.f_globals else frame.f_locals
                return _own_names(own, everything)
            break
        f = f.f_back
    if L is G:
        return _own_names(G, everything)
    out = []
    for k in list(L.keys()):
        if k.startswith('__'):
            continue
        v = L[k]
        if k in G and G[k] is v:
            continue
        if k == 'globals' and 'pydevd' in getattr(getattr(v, '__code__', None), 'co_filename', ''):
            continue
        out.append(k)
    return out


def _summarize(L, G, args_json):
    args = json.loads(args_json)
    _set_precision(False, _CELL)
    B = _Budget(float(args.get('timeout', 0.05)))
    items = []
    names = args.get('names')
    fps = args.get('fingerprints') or False  # fingerprint.py: what changed compares them ('budget': _fp_in_budget)
    if names is None:  # every local of the frame
        names = [[['name', k]] for k in _frame_locals(L, G, bool(args.get('all')))[:args.get('limit', 200)]]
    for path in names:
        path = [tuple(p) for p in path]
        item = {'name': _path_str(path)}
        if B.timed_out or not B.ok('summaries'):
            item['skipped'] = 'time budget'
            items.append(item)
            continue
        try:
            obj = _resolve(L, G, path)
            item.update(_sum_one(obj))
            if fps and (fps is True or _fp_in_budget(obj, B)):
                fp = _fingerprint(obj)
                if fp:
                    item['fp'] = fp
                else:  # what changed cannot compare it (debug_diff says so)
                    item['fp_missing'] = 'no fingerprint without running its code'
            elif fps:
                item['fp_missing'] = 'too big to read in the time left'
        except _ProbeError as e:
            item['error'] = e.code
        except Exception as e:
            item['error'] = '%s: %s' % (_short(type(e)), str(e)[:120])
        items.append(item)
    return json.dumps({'items': items}, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
