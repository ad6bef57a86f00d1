# dapscope Python probe: resolving a path (names, attributes, items) in a
# frame's locals and globals, with the names that do exist on a miss.

# ---------------------------------------------------------------- resolution

def _names(L, G, limit=50):
    """Frame names for VARIABLE_NOT_FOUND: locals first, then globals."""
    loc, glo = [], []
    for k in L:
        if not isinstance(k, str) or k.startswith('__'):
            continue
        if k == 'globals' and 'globals' not in G:
            continue  # injected by pydevd
        if k in G and G[k] is L[k]:
            continue
        loc.append(k)
    for k in G:
        if not isinstance(k, str) or k.startswith('__'):
            continue
        v = G[k]
        if type(v).__name__ in ('module', 'function', 'builtin_function_or_method') or isinstance(v, type):
            continue
        glo.append(k)
    out = []
    for k in loc + glo:
        if k not in out:
            out.append(k)
    return out[:limit]


def _path_str(path):
    s = ''
    for kind, v in path:
        if kind == 'name':
            s += v
        elif kind == 'attr':
            s += '.' + v
        else:
            s += '[' + repr(v) + ']'
    return s


def _public_dir(obj, limit=50):
    try:
        return [k for k in dir(obj) if not k.startswith('_')][:limit]
    except Exception:
        return []


def _resolve(L, G, path):
    kind, name = path[0]
    if name in L:
        obj = L[name]
    elif name in G:
        obj = G[name]
    else:
        b = G.get('__builtins__')
        b = b if isinstance(b, dict) else getattr(b, '__dict__', {})
        if name in b:
            obj = b[name]
        else:
            raise _ProbeError('VARIABLE_NOT_FOUND', "name '%s' is not defined in this frame" % name,
                              'pick one of available_variables, or another frame', _names(L, G))
    for i, (kind, v) in enumerate(path[1:]):
        where = _path_str(path[:i + 1])
        if kind == 'attr':
            try:
                obj = getattr(obj, v)
            except AttributeError:
                raise _ProbeError('VARIABLE_NOT_FOUND', "%s (%s) has no attribute '%s'" % (where, _tname(type(obj)), v),
                                  'available_variables lists its public attributes', _public_dir(obj))
            except Exception as e:
                raise _ProbeError('VARIABLE_NOT_FOUND', '%s.%s raised %s: %s' % (where, v, _short(type(e)), _cut(str(e), 200, _Trunc())))
        else:
            obj = _getitem(obj, v, where)
    return obj


def _getitem(obj, key, where):
    miss = "%s has no item %r" % (where, key)
    if isinstance(obj, dict):
        # Membership first: a defaultdict must not grow a key because we looked.
        try:
            present = dict.__contains__(obj, key)
        except Exception:
            present = False
        if not present:
            keys = []
            for i, k in enumerate(obj):
                if i >= 50:
                    break
                keys.append(k if isinstance(k, str) else repr(k))
            raise _ProbeError('VARIABLE_NOT_FOUND', miss, 'available_variables lists its first keys', keys)
        return dict.__getitem__(obj, key)
    if isinstance(key, str) and _mod('duckdb') is not None and type(obj).__name__ == 'DuckDBPyConnection':
        return _dk_table(obj, key, where)  # a connection's table or view by name (duckdb.py)
    if _is(obj, 'pandas', 'DataFrame'):
        try:
            return obj[key]
        except KeyError:
            raise _ProbeError('VARIABLE_NOT_FOUND', miss, 'available_variables lists its columns',
                              [str(c) for c in list(obj.columns[:50])])
    if hasattr(type(obj), 'keys') and hasattr(type(obj), '__contains__') and not isinstance(obj, (str, bytes)):
        try:
            if key not in obj:
                if _is(obj, 'xarray', 'Dataset'):
                    raise _ProbeError('VARIABLE_NOT_FOUND', miss, 'available_variables lists its data variables and coordinates',
                                      [str(k) for k in list(obj.variables)[:50]])
                raise _ProbeError('VARIABLE_NOT_FOUND', miss)
        except _ProbeError:
            raise
        except Exception:
            pass
    try:
        return obj[key]
    except (KeyError, IndexError) as e:
        raise _ProbeError('VARIABLE_NOT_FOUND', '%s (%s: %s)' % (miss, _short(type(e)), _cut(str(e), 120, _Trunc())))
    except TypeError as e:
        raise _ProbeError('INVALID_EXPRESSION', '%s is not subscriptable with %r: %s' % (where, key, _cut(str(e), 120, _Trunc())))
    except Exception as e:
        raise _ProbeError('VARIABLE_NOT_FOUND', '%s[%r] raised %s: %s' % (where, key, _short(type(e)), _cut(str(e), 120, _Trunc())))
