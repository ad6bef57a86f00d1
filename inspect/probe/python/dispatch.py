# dapscope Python probe: classifying a value into a kind, the handler of
# each kind, and the bounded JSON answer.

# ---------------------------------------------------------------- dispatch

def _classify(obj):
    t = type(obj)
    if obj is None:
        return 'none'
    if isinstance(obj, bool):
        return 'bool'
    if t is int or (isinstance(obj, int) and not _is(obj, 'enum', 'Enum')):
        return 'int'
    if isinstance(obj, float):
        return 'float'
    if isinstance(obj, complex):
        return 'complex'
    if isinstance(obj, str):
        return 'str'
    if isinstance(obj, (bytes, bytearray)):
        return 'bytes'
    if _mod('pandas') is not None:
        if _is(obj, 'pandas', 'DataFrame'):
            return 'dataframe'
        if _is(obj, 'pandas', 'Series'):
            return 'series'
        if _is(obj, 'pandas', 'Index'):
            return 'index'
    np = _mod('numpy')
    if np is not None:
        if isinstance(obj, np.ndarray):
            return 'ndarray'
        if isinstance(obj, np.generic):
            return 'numpy_scalar'
    if _mod('torch') is not None:
        if _is(obj, 'torch', 'Tensor'):
            return 'tensor'
        if _is(obj, 'torch.nn', 'Module'):
            return 'model'
        if _is_state_dict(obj):
            return 'state_dict'
    ek = _engine_classify(obj)  # polars, pyarrow, DuckDB, Spark, Dask (engines.py)
    if ek is not None:
        return ek
    if _mod('xarray') is not None:
        if _is(obj, 'xarray', 'DataArray'):
            return 'dataarray'
        if _is(obj, 'xarray', 'Dataset'):
            return 'dataset'
    if isinstance(obj, tuple) and isinstance(getattr(t, '_fields', None), tuple):
        return 'object'  # namedtuple
    if isinstance(obj, dict):
        return 'dict'
    if isinstance(obj, list):
        return 'list'
    if isinstance(obj, tuple):
        return 'tuple'
    if isinstance(obj, frozenset):
        return 'frozenset'
    if isinstance(obj, set):
        return 'set'
    if _is(obj, 'collections', 'deque'):
        return 'deque'
    if isinstance(obj, type):
        return 'class'
    if type(obj).__name__ == 'module':
        return 'module'
    if getattr(t, '__dataclass_fields__', None) is not None:
        return 'object'
    if callable(obj) and (type(obj).__name__ in ('function', 'method', 'builtin_function_or_method', 'method-wrapper',
                                                  'functools.partial', 'partial', 'wrapper_descriptor', 'method_descriptor')
                          or hasattr(obj, '__code__')):
        return 'callable'
    try:
        has_dict = isinstance(object.__getattribute__(obj, '__dict__'), dict)
    except Exception:
        has_dict = False
    if has_dict or any('__slots__' in getattr(c, '__dict__', {}) for c in _mro(obj)[:-1]):
        return 'object'
    if callable(obj):
        return 'callable'
    return 'unknown'


def _inspect_number(obj, kind, opts, B, res):
    if kind == 'int':
        v = int(obj)
        if not (-2 ** 63 <= v < 2 ** 64):
            v = str(v)  # beyond JSON-safe integers: keep every digit
    elif kind == 'float':
        v = _num(obj, None)
    elif kind == 'complex':
        v = repr(obj)
    else:
        v = obj
    res['structure'] = {'value': v}


# kind -> handler(obj, opts, B, res); _BY_KIND_WITH_KIND handlers also take the kind.
_BY_KIND = {
    'numpy_scalar': _inspect_numpy_scalar, 'dataframe': _inspect_dataframe, 'series': _inspect_series,
    'index': _inspect_index, 'ndarray': _inspect_ndarray, 'tensor': _inspect_tensor,
    'model': _inspect_model, 'state_dict': _inspect_state_dict,
    'dataarray': _inspect_dataarray, 'dataset': _inspect_dataset, 'object': _inspect_object, 'callable': _inspect_callable,
    'class': _inspect_class, 'module': _inspect_module, 'unknown': _inspect_unknown,
}
_BY_KIND_WITH_KIND = dict(
    [(k, _inspect_number) for k in ('none', 'bool', 'int', 'float', 'complex')]
    + [(k, _inspect_text) for k in ('str', 'bytes')]
    + [(k, _inspect_container) for k in ('dict', 'list', 'tuple', 'set', 'frozenset', 'deque')])


# Values whose preview cells get 4 significant digits (containers and
# objects keep 6: their items are values a user compares, e.g. in diffs).
_TABLE_KINDS = frozenset(('dataframe', 'series', 'index', 'ndarray', 'tensor', 'dataarray', 'dataset') + tuple(_ENGINE_DETECTED))


def _inspect(obj, opts, B, res):
    kind = _classify(obj)
    _PREC.cell = _TABLE_CELL if kind in _TABLE_KINDS else _CELL
    res['type'] = _tname(type(obj))
    if kind == 'numpy_scalar':
        res['detected_type'] = {'b': 'bool', 'i': 'int', 'u': 'int', 'f': 'float', 'c': 'complex'}.get(obj.dtype.kind, 'unknown')
    elif kind in _ENGINE_DETECTED:
        _inspect_engine(obj, kind, opts, B, res)
        return
    else:
        res['detected_type'] = kind
    if kind in _BY_KIND:
        _BY_KIND[kind](obj, opts, B, res)
    elif kind in _BY_KIND_WITH_KIND:
        _BY_KIND_WITH_KIND[kind](obj, kind, opts, B, res)


def _clean(res):
    if not res.get('warnings'):
        res.pop('warnings', None)
    return res


def _dumps(res):
    out = json.dumps(res, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
    if len(out) > _MAX_OUT:
        res.pop('preview', None)
        st = res.get('statistics')
        if isinstance(st, dict):
            st.pop('columns', None)
        res.setdefault('warnings', []).append('result over %d bytes: preview and column statistics dropped' % _MAX_OUT)
        out = json.dumps(res, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
        if len(out) > _MAX_OUT:
            out = json.dumps({'name': res.get('name'), 'type': res.get('type'), 'detected_type': res.get('detected_type'),
                              'warnings': res['warnings'] + ['structure dropped too']}, default=str)
    return out
