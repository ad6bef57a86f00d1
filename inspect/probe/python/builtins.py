# dapscope Python probe: built-in values: containers, text, objects,
# callables, classes and modules.

# ---------------------------------------------------------------- builtins

def _depth(obj, limit=6):
    """Nesting depth of builtin containers (bounded breadth), and whether a
    container contains itself."""
    selfref = [False]

    def walk(x, d, path):
        t = dict if isinstance(x, dict) else type(x)
        if not isinstance(x, (list, tuple, set, frozenset, dict)) and not _is(x, 'collections', 'deque'):
            return 0
        if id(x) in path:
            selfref[0] = True
            return 0
        if d >= limit:
            return 1
        path.add(id(x))
        best = 0
        try:
            it = x.values() if t is dict else x
            for i, y in enumerate(it):
                if i >= 20:
                    break
                best = max(best, walk(y, d + 1, path))
        except Exception:
            pass
        path.discard(id(x))
        return 1 + best
    return walk(obj, 0, set()), selfref[0]


def _inspect_container(obj, kind, opts, B, res):
    n = len(obj)
    st = res['structure'] = {'length': n}
    items = int(opts.get('max_preview_items', 10))
    tr = _Trunc()
    pv = res['preview'] = {}
    if kind == 'dict':
        st['key_types'] = _types_of(obj.keys())
        st['value_types'] = _types_of(obj.values())
        out = []
        for i, (k, v) in enumerate(obj.items()):
            if i >= items:
                tr.hit = True
                break
            out.append({'key': _cell(k, 1, tr, {id(obj)}), 'value': _cell(v, 1, tr, {id(obj)}), 'type': _short(type(v))})
        pv['items'] = out
    else:
        st['element_types'] = _types_of(obj)
        seq = kind in ('list', 'tuple', 'deque')
        head_n = items if n <= items or not seq else items - max(1, items // 3)
        out = []
        for i, v in enumerate(obj):
            if i >= head_n:
                tr.hit = True
                break
            it = {'value': _cell(v, 1, tr, {id(obj)}), 'type': _short(type(v))}
            if seq:
                it['index'] = i
            out.append(it)
        pv['items'] = out
        if seq and n > head_n:
            tail_n = items - head_n
            tail = []
            for i in range(max(head_n, n - tail_n), n):
                v = obj[i]
                tail.append({'index': i, 'value': _cell(v, 1, tr, {id(obj)}), 'type': _short(type(v))})
            pv['tail_items'] = tail
    if B.ok('depth'):
        d, selfref = _depth(obj)
        st['depth'] = d
        if selfref:
            st['self_referencing'] = True
    if tr.hit:
        pv['is_truncated'] = True
    if kind in ('list', 'tuple', 'deque') and n and opts.get('include_statistics', True) and B.ok('statistics'):
        s = {}
        _sequence_stats(obj, n, B, s)
        if 'min' in s or 'top_values' in s or 'true_count' in s:
            res['statistics'] = s


def _inspect_text(obj, kind, opts, B, res):
    n = len(obj)
    st = res['structure'] = {'length': n}
    head, tail = 200, 50
    if kind == 'str':
        if B.ok('line_count'):
            st['line_count'] = obj.count('\n') + 1
        if n <= head + tail:
            text = obj
        else:
            text = obj[:head] + _ELL + obj[n - tail:]
    else:
        b = bytes(obj[:head]) if n > head + tail else bytes(obj)
        text = repr(b)[2:-1]
        if n > head + tail:
            text += _ELL + repr(bytes(obj[n - tail:]))[2:-1]
    res['preview'] = {'text': text}
    if n > head + tail:
        res['preview']['is_truncated'] = True


def _attr_entry(name, v):
    tr = _Trunc()
    a = {'name': name, 'type': _tname(type(v)), 'repr': safe_repr(v, tr)}
    if tr.hit:
        a['is_truncated'] = True
    return a


def _inspect_object(obj, opts, B, res):
    t = type(obj)
    st = res['structure'] = {'class': getattr(t, '__qualname__', _short(t)), 'module': getattr(t, '__module__', '') or ''}
    items = int(opts.get('max_preview_items', 10))
    names = []
    kind = 'plain'
    fields = getattr(t, '__dataclass_fields__', None)
    if isinstance(fields, dict):
        kind = 'dataclass'
        names = list(fields)
    elif isinstance(obj, tuple) and isinstance(getattr(t, '_fields', None), tuple):
        kind = 'namedtuple'
        names = list(t._fields)
    elif isinstance(getattr(t, 'model_fields', None), dict) and any(c.__name__ == 'BaseModel' for c in _mro(obj)):
        kind = 'pydantic'
        names = list(t.model_fields)
    elif isinstance(getattr(t, '__fields__', None), dict) and any(c.__name__ == 'BaseModel' for c in _mro(obj)):
        kind = 'pydantic'
        names = list(t.__fields__)
    elif _is(obj, 'enum', 'Enum'):
        kind = 'enum'
        st['value'] = _cell(getattr(obj, 'value', None), 1, _Trunc())
    st['kind'] = kind
    d = None
    try:
        d = object.__getattribute__(obj, '__dict__')
    except Exception:
        pass
    if kind == 'plain':
        if isinstance(d, dict):
            names = [k for k in d if isinstance(k, str) and not k.startswith('_')]
        for c in _mro(obj):
            for s in (getattr(c, '__dict__', {}).get('__slots__') or ()):
                if isinstance(s, str) and not s.startswith('_') and s not in names:
                    names.append(s)
    st['attribute_count'] = len(names)
    attrs = []
    for i, nm in enumerate(names):
        if i >= items:
            res['warnings'].append('showing %d of %d attributes' % (items, len(names)))
            break
        if kind == 'namedtuple':
            v = tuple.__getitem__(obj, i)
        elif isinstance(d, dict) and nm in d:
            v = d[nm]
        else:
            try:
                v = getattr(obj, nm)
            except Exception as e:
                attrs.append({'name': nm, 'type': '?', 'repr': '<raised %s>' % _short(type(e))})
                continue
        attrs.append(_attr_entry(nm, v))
    st['attributes'] = attrs
    props = []
    for c in _mro(obj):
        for k, v in list(getattr(c, '__dict__', {}).items()):
            if type(v) is property and not k.startswith('_') and k not in props:
                props.append(k)
    if props:
        st['properties'] = props[:50]
    tr = _Trunc()
    r = safe_repr(obj, tr)
    res['preview'] = {'repr': r}
    if tr.hit:
        res['preview']['is_truncated'] = True
    if 'repr raised' in r:
        res['warnings'].append('__repr__ raised; showing a placeholder')
    # __len__ is user code: it runs last and only within the budget
    if kind in ('plain', 'dataclass') and hasattr(t, '__len__') and B.ok('length'):
        t0 = time.perf_counter()
        try:
            st['length'] = int(len(obj))
        except Exception as e:
            res['warnings'].append('__len__ raised %s' % _short(type(e)))
        if not B.ok('length'):
            res['warnings'].append('__len__ took %.1f s, past the budget' % (time.perf_counter() - t0))


def _signature(obj):
    insp = _mod('inspect')
    if insp is None:
        try:
            import inspect as insp
        except Exception:
            return ''
    try:
        return str(insp.signature(obj))
    except Exception:
        return ''


def _doc(obj):
    try:
        d = obj.__doc__
        if isinstance(d, str):
            d = d.strip().split('\n')[0]
            return _cut(d, 200, _Trunc())
    except Exception:
        pass
    return ''


def _inspect_callable(obj, opts, B, res):
    st = res['structure'] = {'class': getattr(obj, '__qualname__', '') or getattr(obj, '__name__', '') or '',
                             'module': getattr(obj, '__module__', '') or ''}
    sig = _signature(obj)
    if sig:
        st['signature'] = sig
    doc = _doc(obj)
    if doc:
        st['doc'] = doc
    res['preview'] = {'repr': safe_repr(obj)}


def _inspect_class(obj, opts, B, res):
    st = res['structure'] = {'class': getattr(obj, '__qualname__', _short(obj)), 'module': getattr(obj, '__module__', '') or ''}
    try:
        st['bases'] = [_tname(b) for b in obj.__bases__]
    except Exception:
        pass
    sig = _signature(obj)
    if sig:
        st['signature'] = sig
    doc = _doc(obj)
    if doc:
        st['doc'] = doc
    try:
        st['attribute_count'] = len([k for k in obj.__dict__ if not k.startswith('_')])
    except Exception:
        pass


def _inspect_module(obj, opts, B, res):
    st = res['structure'] = {'module': getattr(obj, '__name__', '')}
    f = getattr(obj, '__file__', None)
    if isinstance(f, str):
        st['file'] = f
    try:
        st['attribute_count'] = len([k for k in vars(obj) if not k.startswith('_')])
    except Exception:
        pass
    doc = _doc(obj)
    if doc:
        st['doc'] = doc


def _inspect_unknown(obj, opts, B, res):
    t = type(obj)
    st = res['structure'] = {'class': getattr(t, '__qualname__', _short(t)), 'module': getattr(t, '__module__', '') or ''}
    try:
        st['attribute_count'] = len(dir(obj))
    except Exception:
        pass
    tr = _Trunc()
    res['preview'] = {'repr': safe_repr(obj, tr)}
    if tr.hit:
        res['preview']['is_truncated'] = True
    res['hint'] = 'no specialised view for %s; drill down with variables_reference' % _tname(t)
