# dapscope inspection probe: runs inside the debuggee (sent once per session
# by the sidecar, kept in sys.modules) and answers "what is this value?" with
# one JSON string. Stdlib only; pandas/numpy/torch/xarray/polars/pyarrow are used only
# when the debuggee already imported them. Never mutates what it inspects.
# Entry point: run(L, G, args_json) -> str.

import sys
import time
import json
import math
import threading

_MAX_STR = 256        # chars per string in safe reprs and cells
_MAX_ITEMS = 50       # items per container in safe reprs
_MAX_DEPTH = 2        # nesting depth of safe reprs and cells
_SAMPLE = 20000       # numeric values sorted for quantiles, histogram, distinct
_OBJ_SAMPLE = 100000  # cells of object columns used for top values and lengths
_EXACT_LIMIT = 10000000   # above this many elements, array stats are sampled
_ARRAY_SAMPLE = 1000000   # sample size for arrays over _EXACT_LIMIT
_STAT_COLUMNS = 100   # columns that get statistics
_PREVIEW_COLUMNS = 200  # columns shown in previews
_TYPE_SAMPLE = 1000   # elements whose types are counted
_MAX_OUT = 4 * 1024 * 1024  # bytes; keeps far below debugpy's 16 MiB message limit
_ELL = '\u2026'


class _ProbeError(Exception):
    def __init__(self, code, message, hint=None, available=None):
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.hint = hint
        self.available = available


class _Budget(object):
    def __init__(self, seconds):
        self.deadline = time.perf_counter() + seconds
        self.timed_out = []

    def ok(self, what):
        if time.perf_counter() < self.deadline:
            return True
        if what not in self.timed_out:
            self.timed_out.append(what)
        return False


class _Trunc(object):
    """Records whether any bound was hit while building bounded values."""
    __slots__ = ('hit',)

    def __init__(self):
        self.hit = False


# ---------------------------------------------------------------- helpers

# Precision of this thread's call: full=True keeps every float exact;
# otherwise statistics and the preview cells of tables and arrays get 4
# significant digits, other previews and page cells (select) 6. Set by each
# entry point (run, select, summarize) and by _inspect for the kind.
_PREC = threading.local()


def _set_precision(full, cell):
    _PREC.full = bool(full)
    _PREC.cell = cell


def _mod(name):
    return sys.modules.get(name)


def _tname(t):
    try:
        m = t.__module__
        q = getattr(t, '__qualname__', None) or t.__name__
    except Exception:
        return '?'
    if m in ('builtins', None):
        return q
    return '%s.%s' % (m, q)


def _short(t):
    try:
        return t.__name__
    except Exception:
        return '?'


def _mro(obj):
    try:
        return type(obj).__mro__
    except Exception:
        return (type(obj),)


def _is(obj, prefix, name):
    """True when type(obj) or a base is `name` from a module under `prefix`."""
    for c in _mro(obj):
        try:
            if c.__name__ == name and (c.__module__ == prefix or c.__module__.startswith(prefix + '.')):
                return True
        except Exception:
            pass
    return False


def _cut(s, n, tr):
    if len(s) > n:
        tr.hit = True
        return s[:n] + _ELL
    return s


def _num(x, digits=6):
    """A finite float rounded to `digits` significant digits; inf as a
    string; NaN as None."""
    try:
        x = float(x)
    except Exception:
        return None
    if x != x:
        return None
    if x in (float('inf'), float('-inf')):
        return 'inf' if x > 0 else '-inf'
    if x == 0 or digits is None or getattr(_PREC, 'full', False):
        return x
    a = abs(x)
    if a >= 10 ** (digits - 1):
        # never round into the integer part: 1199.5 stays 1199.5, not 1200
        digits = min(17, int(math.log10(a)) + 2)
    return float('%.*g' % (digits, x))


def _exact(x):
    """A scalar (numpy or Python) made JSON-safe without rounding."""
    try:
        if hasattr(x, 'item') and not isinstance(x, (int, float)):
            x = x.item()
    except Exception:
        pass
    if isinstance(x, bool):
        return x
    if isinstance(x, int):
        return x if -2 ** 63 <= x < 2 ** 64 else str(x)
    if isinstance(x, float):
        return _num(x, None)
    return _cell(x, 0, _Trunc())


def safe_repr(obj, tr=None, depth=0, seen=None):
    """A bounded repr: depth 2, 50 items, 256 chars per string. Never raises."""
    if tr is None:
        tr = _Trunc()
    if seen is None:
        seen = set()
    try:
        t = type(obj)
        if obj is None or t in (bool, int, float, complex):
            r = repr(obj)
            return _cut(r, _MAX_STR, tr)
        if t is str:
            return repr(_cut(obj, _MAX_STR, tr))
        if t in (bytes, bytearray):
            return _cut(repr(obj[:_MAX_STR]), _MAX_STR * 4, tr) + ('' if len(obj) <= _MAX_STR else _ELL)
        if t in (list, tuple, set, frozenset, dict) or _is(obj, 'collections', 'deque'):
            if id(obj) in seen:
                tr.hit = True
                return '[...]' if t is list else '{...}' if t is dict else '(...)'
            if depth >= _MAX_DEPTH:
                tr.hit = True
                return '<%s len=%d>' % (_short(t), len(obj))
            seen.add(id(obj))
            try:
                parts = []
                it = obj.items() if t is dict else obj
                for i, x in enumerate(it):
                    if i >= _MAX_ITEMS:
                        tr.hit = True
                        parts.append(_ELL)
                        break
                    if t is dict:
                        parts.append('%s: %s' % (safe_repr(x[0], tr, depth + 1, seen),
                                                 safe_repr(x[1], tr, depth + 1, seen)))
                    else:
                        parts.append(safe_repr(x, tr, depth + 1, seen))
            finally:
                seen.discard(id(obj))
            body = ', '.join(parts)
            if t is list:
                return '[' + body + ']'
            if t is tuple:
                return '(' + body + (',)' if len(parts) == 1 else ')')
            if t is dict:
                return '{' + body + '}'
            if t is set:
                return '{' + body + '}' if parts else 'set()'
            if t is frozenset:
                return 'frozenset({' + body + '})'
            return 'deque([' + body + '])'
        r = repr(obj)
        if not isinstance(r, str):
            r = str(r)
        return _cut(r, _MAX_STR, tr)
    except Exception as e:
        tr.hit = True
        return '<%s; repr raised %s: %s>' % (_tname(type(obj)), _short(type(e)), _cut(str(e), 80, _Trunc()))


def _cell(v, depth, tr, seen=None):
    """A JSON-safe, bounded version of a value (for previews)."""
    try:
        t = type(v)
        if t is float:  # the common cells first
            return _num(v, getattr(_PREC, 'cell', 6))
        if t is str:
            return _cut(v, _MAX_STR, tr)
        if v is None or t is bool:
            return v
        if t is int or (isinstance(v, int) and not hasattr(v, '__dict__')):
            v = int(v)
            return v if -2 ** 63 <= v < 2 ** 64 else str(v)
        if isinstance(v, float):
            return _num(v, getattr(_PREC, 'cell', 6))
        if t in (bytes, bytearray):
            return safe_repr(v, tr)
        if t is complex:
            return repr(v)
        mod = getattr(t, '__module__', '') or ''
        if mod == 'numpy' or mod.startswith('numpy.'):
            np = _mod('numpy')
            if np is not None and isinstance(v, np.generic):
                k = v.dtype.kind
                if k in 'mM':
                    if np.isnat(v):
                        return None
                    # datetime64[ns] as 2024-01-01 or 2024-01-02T10:30, not nine zeros
                    return str(np.datetime_as_string(v, unit='auto')) if k == 'M' else str(v)
                if k == 'c':
                    return repr(complex(v))
                if k in 'biuf':
                    return _cell(v.item(), depth, tr)
                if k in 'SUV':
                    return _cell(v.item(), depth, tr)
        if mod.startswith('pandas'):
            pd = _mod('pandas')
            if pd is not None:
                if v is pd.NaT or v is getattr(pd, 'NA', None):
                    return None
                if _is(v, 'pandas', 'Timestamp'):
                    return v.isoformat()
                if _is(v, 'pandas', 'Timedelta') or _is(v, 'pandas', 'Period') or _is(v, 'pandas', 'Interval'):
                    return str(v)
        if mod == 'datetime':
            return v.isoformat()
        if mod == 'decimal' or mod == 'uuid' or mod == 'fractions' or mod == 'pathlib':
            return str(v)
        if isinstance(v, (list, tuple, set, frozenset, dict)) or _is(v, 'collections', 'deque'):
            if isinstance(v, dict):
                t = dict
            if seen is None:
                seen = set()
            if id(v) in seen:
                tr.hit = True
                return '<cycle %s>' % _short(t)
            if depth >= _MAX_DEPTH:
                tr.hit = True
                return '<%s len=%d>' % (_short(t), len(v))
            seen.add(id(v))
            try:
                out = {} if t is dict else []
                for i, x in enumerate(v.items() if t is dict else v):
                    if i >= 10:
                        tr.hit = True
                        if t is dict:
                            out[_ELL] = '%d more' % (len(v) - 10)
                        else:
                            out.append(_ELL)
                        break
                    if t is dict:
                        k = x[0] if isinstance(x[0], str) else safe_repr(x[0], tr, 1)
                        out[_cut(k, 64, tr)] = _cell(x[1], depth + 1, tr, seen)
                    else:
                        out.append(_cell(x, depth + 1, tr, seen))
                return out
            finally:
                seen.discard(id(v))
        return safe_repr(v, tr, 1)
    except Exception as e:
        tr.hit = True
        return '<%s; raised %s>' % (_tname(type(v)), _short(type(e)))


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


# ---------------------------------------------------------------- statistics

def _stride_sample(v, n):
    size = v.shape[0]
    if size <= n:
        return v, False
    step = size // n
    return v[::step][:n], True


def _distinct_from_sorted(np, ss, sampled, n_total, res):
    """Distinct count from a sorted (sample of a) 1-D array: exact when not
    sampled, else the GEE estimate (flagged)."""
    m = int(ss.shape[0])
    if m == 0:
        return
    if ss.dtype.kind == 'f':
        ss = ss[~np.isnan(ss)]
        m = int(ss.shape[0])
        if m == 0:
            return
    change = np.flatnonzero(ss[1:] != ss[:-1])
    d = int(change.shape[0]) + 1
    if not sampled:
        res['distinct'] = d
        return
    if d > 0.9 * m:
        # nearly every sampled value is unique: scale (GEE badly
        # underestimates continuous data)
        est = float(d) / m * n_total
    else:
        # run lengths give the singletons f1; GEE: sqrt(N/n) * f1 + (d - f1)
        bounds = np.concatenate(([0], change + 1, [m]))
        f1 = int(np.count_nonzero(np.diff(bounds) == 1))
        est = math.sqrt(float(n_total) / m) * f1 + (d - f1)
    res['distinct'] = int(min(n_total, max(d, round(est))))
    res['distinct_estimated'] = True


def _distinct(np, v, n_total, res):
    try:
        s, sampled = _stride_sample(v, _SAMPLE)
        _distinct_from_sorted(np, np.sort(s), sampled or n_total > v.shape[0], n_total, res)
    except Exception:
        pass


def _quantile_sorted(ss, p):
    """numpy's default (linear) percentile of a sorted array."""
    pos = p / 100.0 * (ss.shape[0] - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, ss.shape[0] - 1)
    return float(ss[lo]) + (float(ss[hi]) - float(ss[lo])) * (pos - lo)


def _numeric_stats(np, v, res, want_quant=True, distinct=False):
    """v: 1-D numpy array of ints/uints/floats (full data). Exact: count,
    NaN/inf, min, max, mean, std, zeros. From one sorted evenly spaced
    sample of at most _SAMPLE finite values (flagged sampled when smaller
    than the data): quantiles, histogram, distinct."""
    n = int(v.shape[0])
    res['count'] = n
    fin = v
    if v.dtype.kind == 'f':
        if not bool(np.isfinite(v).all()):
            # counters are left out when zero
            nan = np.isnan(v)
            inf = np.isinf(v)
            _count(res, 'nan_count', np.count_nonzero(nan))
            _count(res, 'inf_count', np.count_nonzero(inf))
            fin = v[~(nan | inf)]
    if fin.shape[0] == 0:
        return
    mn, mx = fin.min(), fin.max()
    if fin.dtype.kind == 'f':
        res['min'] = _num(mn, 4)
        res['max'] = _num(mx, 4)
    else:
        res['min'] = _exact(mn)
        res['max'] = _exact(mx)
    res['mean'] = _num(fin.mean(dtype='float64'), 4)
    res['std'] = _num(fin.std(dtype='float64'), 4)
    _count(res, 'zeros', np.count_nonzero(fin == 0))
    if not want_quant:
        return
    s, sampled = _stride_sample(fin, _SAMPLE)
    ss = np.sort(s)
    m = int(ss.shape[0])
    if sampled and not res.get('sampled'):
        res['sampled'] = True
        res['sample_size'] = m
    res['quantiles'] = dict(('p%d' % p, _num(_quantile_sorted(ss, p), 4)) for p in (5, 25, 50, 75, 95))
    lo, hi = float(mn), float(mx)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, 11)
    idx = np.searchsorted(ss, edges[1:-1], side='left')
    cuts = [0] + [int(i) for i in idx] + [m]
    counts = [cuts[i + 1] - cuts[i] for i in range(10)]
    if sampled:
        scale = float(fin.shape[0]) / m
        counts = [int(round(c * scale)) for c in counts]
    # 10 equal bins: edge i is start + i * width
    res['histogram'] = {'start': _num(lo, 4), 'width': _num((hi - lo) / 10.0, 4), 'counts': counts}
    if distinct:
        _distinct_from_sorted(np, ss, sampled, int(fin.shape[0]), res)
        if res.get('inf_count') and 'distinct' in res:
            # infinities are values too (as in pandas' nunique)
            res['distinct'] += int(bool((v == np.inf).any())) + int(bool((v == -np.inf).any()))


def _count(res, key, k):
    """Sets a counter only when it is not zero (absent means none)."""
    k = int(k)
    if k:
        res[key] = k


def _types_of(it, limit=_TYPE_SAMPLE):
    out = {}
    for i, x in enumerate(it):
        if i >= limit:
            break
        k = _short(type(x))
        out[k] = out.get(k, 0) + 1
    return out


def _series_stats(pd, np, s, B, opts, res, label):
    """Per-column / Series statistics. `res` receives the fields."""
    n = int(len(s))
    dt = s.dtype
    kind = getattr(dt, 'kind', 'O')
    dname = str(dt)
    res['count'] = n
    if n == 0:
        return
    if dname == 'category':
        cat = s.cat
        res['categories'] = int(len(cat.categories))
        res['ordered'] = bool(cat.ordered)
        if B.ok(label + '.top_values'):
            # value_counts(dropna=True).head(5) from the codes: most frequent
            # first, ties in category order
            codes = cat.codes.to_numpy()
            k = np.bincount(codes[codes >= 0], minlength=len(cat.categories))
            top = [int(i) for i in np.argsort(-k, kind='stable')[:5] if k[i]]
            cats = cat.categories
            res['top_values'] = [{'value': _cell(cats[i], 1, _Trunc()), 'count': int(k[i])} for i in top]
        return
    if kind == 'b' and dname == 'bool':
        v = s.to_numpy()
        t = int(np.count_nonzero(v))
        res['true_count'] = t
        res['true_rate'] = _num(float(t) / n, 4)
        tv = [x for x in ({'value': True, 'count': t}, {'value': False, 'count': n - t}) if x['count']]
        res['top_values'] = sorted(tv, key=lambda x: -x['count'])
        res['distinct'] = int((t > 0) + (n - t > 0))
        return
    if kind in 'iuf' and not hasattr(dt, 'na_value'):
        _numeric_stats(np, s.to_numpy(), res, distinct=True)
        return
    if kind in 'iuf':  # nullable extension dtypes (Int64, Float64)
        v = s.to_numpy(dtype='float64', na_value=float('nan'))
        _numeric_stats(np, v, res, distinct=True)
        res.pop('nan_count', None)
        return
    if kind == 'M':
        nn = s.dropna()
        if len(nn):
            res['first'] = _cell(nn.iloc[0], 1, _Trunc())
            res['last'] = _cell(nn.iloc[-1], 1, _Trunc())
            res['min'] = _cell(nn.min(), 1, _Trunc())
            res['max'] = _cell(nn.max(), 1, _Trunc())
        return
    if kind == 'm':
        nn = s.dropna()
        if len(nn):
            res['min'] = str(nn.min())
            res['max'] = str(nn.max())
            res['mean'] = str(nn.mean())
        return
    if kind == 'c':
        v = s.to_numpy()
        _count(res, 'nan_count', np.isnan(v).sum())
        res['mean'] = repr(complex(v.mean()))
        return
    # object / string / other extension types
    sampled = n > _OBJ_SAMPLE
    ss = s.iloc[::max(1, n // _OBJ_SAMPLE)].iloc[:_OBJ_SAMPLE] if sampled else s
    if sampled:
        res['sampled'] = True
        res['sample_size'] = int(len(ss))
    nn = ss.dropna()
    types = _types_of(nn.tolist()) if len(nn) else {}
    if types:
        res['element_types'] = types
    if B.ok(label + '.top_values'):
        try:
            vc = nn.value_counts()
            if sampled:
                res['distinct'] = int(len(vc))
                res['distinct_estimated'] = True
            else:
                res['distinct'] = int(len(vc))
            top = vc.head(5)
            res['top_values'] = [{'value': _cell(k, 1, _Trunc()), 'count': int(c)} for k, c in zip(top.index.tolist(), top.tolist())]
        except Exception:
            pass  # unhashable cells (lists, dicts)
    if types and set(types) <= {'str'} and B.ok(label + '.str_len'):
        try:
            lens = np.fromiter((len(x) for x in nn.tolist()), dtype='int64', count=len(nn))
            res['str_len'] = {'min': int(lens.min()), 'max': int(lens.max()), 'mean': _num(lens.mean(), 4)}
        except Exception:
            pass


# ---------------------------------------------------------------- pandas

def _null_count(np, s):
    dt = s.dtype
    kind = getattr(dt, 'kind', 'O')
    if not hasattr(dt, 'na_value') and kind in 'iub':
        return 0
    if not hasattr(dt, 'na_value') and kind == 'f' and np is not None:
        v = s.to_numpy()
        if bool(np.isfinite(v).all()):
            return 0
        return int(np.count_nonzero(np.isnan(v)))
    return int(s.isna().sum())


def _label(c):
    if isinstance(c, str):
        return c, None
    if isinstance(c, tuple):
        return ' / '.join(str(x) for x in c), [_cell(x, 1, _Trunc()) for x in c]
    return str(c), _cell(c, 1, _Trunc())


def _index_info(pd, idx, B, n_budget_label):
    info = {'type': _short(type(idx)), 'length': int(len(idx))}
    try:
        nl = int(getattr(idx, 'nlevels', 1))
        if nl > 1:
            info['levels'] = nl
            info['names'] = [_cell(x, 1, _Trunc()) for x in idx.names]
        elif idx.name is not None:
            info['name'] = _cell(idx.name, 1, _Trunc())
        info['dtype'] = str(idx.dtype)
        if _is(idx, 'pandas', 'RangeIndex'):
            info['start'] = int(idx.start)
            info['stop'] = int(idx.stop)
            info['step'] = int(idx.step)  # unique by construction: no is_unique
        elif B.ok(n_budget_label):
            info['is_unique'] = bool(idx.is_unique)
        if len(idx) and not _is(idx, 'pandas', 'RangeIndex'):  # a RangeIndex's ends are start and stop
            info['first'] = _cell(idx[0], 1, _Trunc())
            info['last'] = _cell(idx[-1], 1, _Trunc())
    except Exception:
        pass
    return info


def _rows(frame_cols, idx, rows_slice, tr):
    """Cells of a row slice: frame_cols = list of 1-D value lists."""
    out = []
    idx_vals = idx.tolist()
    for r in range(len(idx_vals)):
        out.append({'index': _cell(idx_vals[r], 1, tr), 'values': [_cell(col[r], 1, tr) for col in frame_cols]})
    return out


def _series_list(df):
    """The frame's columns as Series, by position (duplicate labels are
    fine). DataFrame._ixs is what iloc ends in, without its validation
    (~7x faster); it does not fill the frame's item cache."""
    n = int(df.shape[1])
    ixs = getattr(df, '_ixs', None)
    if ixs is not None:
        try:
            return [ixs(i, axis=1) for i in range(n)]
        except Exception:
            pass
    return [df.iloc[:, i] for i in range(n)]


def _column(df, i):
    """Column i of df as a Series (see _series_list)."""
    try:
        return df._ixs(i, axis=1)
    except Exception:
        return df.iloc[:, i]


def _cells(s, a, b):
    """Series.iloc[a:b].tolist() without building the slice Series."""
    try:
        return s._values[a:b].tolist()
    except Exception:
        return s.iloc[a:b].tolist()


def _take_values(v, pos):
    """v[pos] for a numpy or extension array."""
    try:
        return v.take(pos)
    except Exception:
        return _mod('pandas').Series(v).iloc[pos]._values


def _page_json(np, v, tr):
    """The cells of a 1-D numpy or extension array as JSON texts, equal to
    json.dumps of what _cell gives for each (numbers are formatted once,
    not rounded to a float and printed again)."""
    if type(v) is np.ndarray and v.dtype.kind in 'iubf':
        k = v.dtype.kind
        vals = v.tolist()
        if k == 'b':
            return ['true' if x else 'false' for x in vals]
        if k != 'f':
            return list(map(str, vals))
        dumps = json.dumps
        if getattr(_PREC, 'full', False):
            return [repr(x) if x - x == 0 else dumps(_num(x)) for x in vals]
        d = getattr(_PREC, 'cell', 6)
        big, fmt = 10.0 ** (d - 1), '%%.%dg' % d
        out = [fmt % x if -big < x < big else dumps(_num(x, d)) for x in vals]
        # %g drops ".0" where repr keeps it (5.0, not 5): floats stay floats
        return [t if '.' in t or 'e' in t or 'n' in t else t + '.0' for t in out]
    enc, dumps = json.encoder.encode_basestring, json.dumps
    return [enc(c) if type(c) is str else dumps(c, ensure_ascii=False, allow_nan=False, default=str)
            for c in (_cell(x, 1, tr) for x in v.tolist())]


_DTYPE_STR = {}


def _dtype_str(dt):
    """str(dtype), remembered (numpy builds the name anew each time)."""
    try:
        return _DTYPE_STR[dt]
    except KeyError:
        if len(_DTYPE_STR) < 256:
            _DTYPE_STR[dt] = str(dt)
        return str(dt)
    except TypeError:  # an unhashable extension dtype
        return str(dt)


def _col_values(df, i):
    """Column i's values (numpy or extension array) without a Series."""
    try:
        return df._mgr.iget_values(i)
    except Exception:
        return _column(df, i)._values


def _index_cells(np, index, pos, tr):
    """The index labels at positions pos (a RangeIndex by arithmetic); None
    when they are the positions themselves (0, 1, 2, …)."""
    r = getattr(index, '_range', None)
    if type(r) is range:
        if r.start == 0 and r.step == 1:
            return None
        return (pos * r.step + r.start).tolist()
    return [_cell(x, 1, tr) for x in index[pos].tolist()]


def _memory(df, series, deep):
    """df.memory_usage(index=True, deep=deep).sum() without building the
    per-column Series."""
    return int(df.index.memory_usage(deep=deep)) + sum(int(s.memory_usage(index=False, deep=deep)) for s in series)


def _duplicate_rows(pd, np, df):
    """df.duplicated().sum(), exact: equal rows have equal row hashes, so
    all-distinct hashes mean no duplicates; only otherwise pandas' own
    duplicated() runs."""
    try:
        h = pd.util.hash_pandas_object(df, index=False).to_numpy()
        if int(np.unique(h).shape[0]) == int(h.shape[0]):
            return 0
    except Exception:
        pass
    return int(df.duplicated().sum())


def _inspect_dataframe(df, opts, B, res):
    pd, np = _mod('pandas'), _mod('numpy')
    nrows, ncols = (int(x) for x in df.shape)
    st = res['structure'] = {'shape': [nrows, ncols], 'column_count': ncols}
    cols = df.columns
    nl = int(getattr(cols, 'nlevels', 1))
    if nl > 1:
        st['column_levels'] = nl
        st['column_level_names'] = [_cell(x, 1, _Trunc()) for x in cols.names]
    dup = None
    try:
        if not cols.is_unique:
            dup = cols.duplicated(keep=False).tolist()
            st['duplicate_columns'] = True
    except Exception:
        pass
    dtypes = [str(d) for d in df.dtypes.tolist()]
    labels = cols.tolist()
    columns = []
    for i in range(ncols):
        name, key = _label(labels[i])
        c = {'name': name, 'dtype': dtypes[i]}
        if key is not None:
            c['key'] = key
        if dup is not None and dup[i]:
            c['duplicate'] = True
        columns.append(c)
    st['columns'] = columns
    st['index'] = _index_info(pd, df.index, B, 'index.is_unique')
    series = _series_list(df)
    deep = bool(opts.get('deep_memory'))
    try:
        st['memory_bytes'] = _memory(df, series, deep)
        if deep:
            st['memory_deep'] = True
        elif any(d == 'object' for d in dtypes):
            st['memory_estimated'] = True
    except Exception:
        pass
    # null counts: one vectorized pass
    for i, c in enumerate(columns):
        if not B.ok('null_counts'):
            break
        try:
            k = _null_count(np, series[i])
            c['null_count'] = k
        except Exception:
            pass
    # preview
    pc = min(ncols, _PREVIEW_COLUMNS)
    rows = int(opts.get('max_preview_rows', 5))
    tail_n = max(1, rows // 2) if nrows > rows else 0
    tr = _Trunc()
    pv = res['preview'] = {'columns': [c['name'] for c in columns[:pc]]}
    if pc < ncols:
        res['warnings'].append('preview shows the first %d of %d columns' % (pc, ncols))
    pv['head'] = _rows([_cells(series[i], 0, rows) for i in range(pc)], df.index[:rows], None, tr)
    if tail_n:
        tail_start = max(rows, nrows - tail_n)
        pv['tail'] = _rows([_cells(series[i], tail_start, nrows) for i in range(pc)], df.index[tail_start:], None, tr)
        pv['omitted_rows'] = tail_start - rows
    if tr.hit:
        pv['is_truncated'] = True
    # statistics, cheapest columns first
    if not opts.get('include_statistics', True):
        return
    stats = {'columns': []}
    res['statistics'] = stats
    if nrows * ncols > _EXACT_LIMIT and not opts.get('force_statistics'):
        pass  # per column work below stays sampled where costly
    for i in range(min(ncols, _STAT_COLUMNS)):
        if not B.ok('statistics.columns[%d:]' % i):
            break
        cst = {'name': columns[i]['name']}
        try:
            _series_stats(pd, np, series[i], B, opts, cst, 'statistics.columns[%d]' % i)
        except Exception as e:
            cst['skipped'] = 'failed: %s: %s' % (_short(type(e)), _cut(str(e), 100, _Trunc()))
        cst.pop('count', None)
        stats['columns'].append(cst)
    if ncols > _STAT_COLUMNS:
        res['warnings'].append('statistics cover the first %d of %d columns' % (_STAT_COLUMNS, ncols))
    if nrows <= _SAMPLE and ncols <= 50 and nrows > 0 and B.ok('duplicate_rows'):
        try:
            stats['duplicate_rows'] = _duplicate_rows(pd, np, df)
        except Exception:
            pass


def _inspect_series(s, opts, B, res):
    pd, np = _mod('pandas'), _mod('numpy')
    n = int(len(s))
    st = res['structure'] = {'shape': [n], 'length': n, 'dtype': str(s.dtype)}
    if s.name is not None:
        st['series_name'] = _cell(s.name, 1, _Trunc())
    st['index'] = _index_info(pd, s.index, B, 'index.is_unique')
    deep = bool(opts.get('deep_memory'))
    try:
        st['memory_bytes'] = int(s.memory_usage(index=True, deep=deep))
        if deep:
            st['memory_deep'] = True
        elif str(s.dtype) == 'object':
            st['memory_estimated'] = True
    except Exception:
        pass
    k = int(s.isna().sum())
    st['columns'] = [{'name': str(s.name) if s.name is not None else '', 'dtype': str(s.dtype), 'null_count': k}]
    rows = int(opts.get('max_preview_rows', 5))
    tail_n = max(1, rows // 2) if n > rows else 0
    tr = _Trunc()
    pv = res['preview'] = {'columns': [str(s.name) if s.name is not None else 'value']}
    head = s.iloc[:rows]
    pv['head'] = _rows([head.tolist()], head.index, None, tr)
    if tail_n:
        start = max(rows, n - tail_n)
        tail = s.iloc[start:]
        pv['tail'] = _rows([tail.tolist()], tail.index, None, tr)
        pv['omitted_rows'] = start - rows
    if tr.hit:
        pv['is_truncated'] = True
    if opts.get('include_statistics', True) and B.ok('statistics'):
        stats = res['statistics'] = {}
        _series_stats(pd, np, s, B, opts, stats, 'statistics')


def _inspect_index(idx, opts, B, res):
    n = int(len(idx))
    res['structure'] = {'shape': [n], 'length': n, 'dtype': str(idx.dtype), 'index': _index_info(_mod('pandas'), idx, B, 'is_unique')}
    items = int(opts.get('max_preview_items', 10))
    tr = _Trunc()
    res['preview'] = {'items': [{'index': i, 'value': _cell(x, 1, tr)} for i, x in enumerate(idx[:items].tolist())]}
    if tr.hit or n > items:
        res['preview']['is_truncated'] = True


# ---------------------------------------------------------------- numpy

def _edges(np, a, k, tr):
    if a.ndim == 0:
        return _cell(a[()], 1, tr)
    n = a.shape[0]
    if a.ndim == 1:
        # tolist() turns datetime64[ns] into bare integers: keep numpy scalars
        items = list if a.dtype.kind in 'mM' else (lambda x: x.tolist())
        if n <= 2 * k:
            return [_cell(x, 1, tr) for x in items(a)]
        tr.hit = True
        return [_cell(x, 1, tr) for x in items(a[:k])] + [_ELL] + [_cell(x, 1, tr) for x in items(a[n - k:])]
    if n <= 2 * k:
        return [_edges(np, a[i], k, tr) for i in range(n)]
    tr.hit = True
    return [_edges(np, a[i], k, tr) for i in range(k)] + [_ELL] + [_edges(np, a[i], k, tr) for i in range(n - k, n)]


def _inspect_ndarray(a, opts, B, res):
    np = _mod('numpy')
    dt = a.dtype
    size = int(a.size)
    st = res['structure'] = {
        'shape': [int(x) for x in a.shape], 'ndim': int(a.ndim), 'dtype': str(dt), 'size': size,
        'nbytes': int(a.nbytes), 'itemsize': int(dt.itemsize),
        'c_contiguous': bool(a.flags['C_CONTIGUOUS']), 'f_contiguous': bool(a.flags['F_CONTIGUOUS']),
    }
    if dt.names:
        st['fields'] = [{'name': str(nm), 'dtype': str(dt.fields[nm][0])} for nm in dt.names]
    masked = _is(a, 'numpy', 'MaskedArray')
    if masked:
        try:
            st['masked_count'] = int(np.ma.count_masked(a))
        except Exception:
            pass
    items = int(opts.get('max_preview_items', 10))
    k = max(1, items // 2) if a.ndim <= 1 else (3 if a.ndim <= 2 else (2 if a.ndim <= 4 else 1))
    tr = _Trunc()
    try:
        # MaskedArray.tolist() yields None for masked elements.
        res['preview'] = {'values': _edges(np, a, k, tr)}
        if tr.hit:
            res['preview']['is_truncated'] = True
    except Exception as e:
        res['warnings'].append('preview failed: %s' % _short(type(e)))
    if not opts.get('include_statistics', True) or size == 0 or dt.names:
        return
    if not B.ok('statistics'):
        return
    stats = res['statistics'] = {}
    kind = dt.kind
    if masked:
        flat = a.compressed()
    elif a.flags['C_CONTIGUOUS'] or a.flags['F_CONTIGUOUS']:
        flat = a.reshape(-1, order='A')
    else:
        flat = a.ravel()
    n = int(flat.shape[0])
    if n > _EXACT_LIMIT and not opts.get('force_statistics'):
        step = n // _ARRAY_SAMPLE
        flat = flat[::step][:_ARRAY_SAMPLE]
        stats['sampled'] = True
        stats['sample_size'] = int(flat.shape[0])
        res['warnings'].append('statistics computed on %d evenly spaced of %d elements' % (flat.shape[0], n))
    if kind == 'b':
        t = int(np.count_nonzero(flat))
        stats['count'] = int(flat.shape[0])
        stats['true_count'] = t
        stats['true_rate'] = _num(float(t) / max(1, flat.shape[0]), 4)
    elif kind in 'iuf':
        if kind == 'f' and dt.itemsize < 4:
            flat = flat.astype('float32')
        _numeric_stats(np, flat, stats, distinct=True)
        if stats.get('sampled') and 'distinct' in stats:
            # the array itself was sampled: scale the estimate to all elements
            stats['distinct_estimated'] = True
    elif kind == 'c':
        stats['count'] = int(flat.shape[0])
        _count(stats, 'nan_count', np.isnan(flat).sum())
        stats['mean'] = repr(complex(flat.mean()))
    elif kind == 'M' or kind == 'm':
        nat = np.isnat(flat)
        stats['count'] = int(flat.shape[0])
        _count(stats, 'nan_count', nat.sum())
        ok = flat[~nat]
        if ok.shape[0]:
            tr = _Trunc()
            stats['min'] = _cell(ok.min(), 0, tr)
            stats['max'] = _cell(ok.max(), 0, tr)
            stats['first'] = _cell(ok[0], 0, tr)
            stats['last'] = _cell(ok[-1], 0, tr)
    elif kind == 'O':
        stats['count'] = int(flat.shape[0])
        stats['element_types'] = _types_of(flat[:_TYPE_SAMPLE].tolist())
    elif kind in 'SU':
        stats['count'] = int(flat.shape[0])


def _inspect_numpy_scalar(x, opts, B, res):
    res['structure'] = {'value': _cell(x, 0, _Trunc()), 'dtype': str(x.dtype)}


# ---------------------------------------------------------------- other libraries

def _inspect_tensor(t, opts, B, res):
    st = res['structure'] = {}
    try:
        st['shape'] = [int(x) for x in t.shape]
        st['ndim'] = int(t.dim())
        st['dtype'] = str(t.dtype)
        st['device'] = str(t.device)
        st['requires_grad'] = bool(t.requires_grad)
        st['size'] = int(t.numel())
        st['itemsize'] = int(t.element_size())
        st['nbytes'] = int(t.numel() * t.element_size())
        st['c_contiguous'] = bool(t.is_contiguous())
    except Exception:
        pass
    device = st.get('device') or str(getattr(t, 'device', 'cpu'))
    if not device.startswith('cpu'):
        res['warnings'].append('tensor is on %s: no statistics or preview (never copied off the device)' % device)
        return
    layout = str(getattr(t, 'layout', 'torch.strided'))
    if layout != 'torch.strided':
        for k in ('nbytes', 'c_contiguous'):  # dense-only facts
            st.pop(k, None)
        res['warnings'].append('%s layout: no statistics or preview (only dense tensors are read)' % layout.replace('torch.', ''))
        return
    np = _mod('numpy')
    if np is None:
        res['warnings'].append('numpy is not loaded: no statistics or preview')
        return
    try:
        arr = _tensor_numpy(t, st, res)
        if arr is None:
            return
        sub = {'structure': {}, 'warnings': res['warnings']}
        _inspect_ndarray(arr, opts, B, sub)
        if 'preview' in sub:
            res['preview'] = sub['preview']
        if 'statistics' in sub:
            res['statistics'] = sub['statistics']
    except Exception as e:
        res['warnings'].append('tensor statistics failed: %s: %s' % (_short(type(e)), _cut(str(e), 200, _Trunc())))


def _tensor_numpy(t, st, res):
    """The data of a CPU tensor as numpy: a view (no copy) when numpy has
    its dtype; for bfloat16 / complex32 (which numpy lacks) an exact
    float32 / complex64 copy of at most _EXACT_LIMIT elements, said in a
    warning; otherwise None with a warning."""
    a = t.detach()
    for fix in ('resolve_conj', 'resolve_neg'):  # lazy conjugate/negative views
        f = getattr(a, fix, None)
        if f is not None:
            a = f()
    try:
        return a.numpy()
    except TypeError:
        pass
    torch = _mod('torch')
    dt = st.get('dtype') or str(a.dtype)
    wide = None
    if torch is not None and a.is_complex():
        wide = torch.complex64
    elif torch is not None and a.is_floating_point():
        wide = torch.float32
    if wide is None:
        res['warnings'].append('numpy has no %s: no statistics or preview' % dt)
        return None
    if st.get('size', 0) > _EXACT_LIMIT:
        res['warnings'].append('numpy has no %s and a %s copy of %d elements is too big: no statistics or preview'
                               % (dt, str(wide).replace('torch.', ''), st['size']))
        return None
    res['warnings'].append('numpy has no %s: statistics and preview from an exact %s copy'
                           % (dt, str(wide).replace('torch.', '')))
    return a.to(wide).numpy()


def _xr_data(np, var):
    """The in-memory numpy data of an xarray Variable, or None: dask arrays
    and lazily loaded files are never computed or read."""
    d = getattr(var, '_data', None)
    if isinstance(d, np.ndarray):
        return d
    if _short(type(d)) == 'PandasIndexingAdapter':  # an index coordinate: in memory
        return var.values
    return None


def _xr_lazy_warning(var, what):
    return '%s is a %s, not in-memory numpy: no statistics or preview (never computed or loaded)' % (
        what, _tname(type(getattr(var, '_data', None))))


def _xr_attrs(attrs):
    out = []
    for i, (k, v) in enumerate(attrs.items()):
        if i >= _MAX_ITEMS:
            break
        out.append(_attr_entry(str(k), v))
    return out


def _xr_coords(np, coords, indexes, opts):
    out = []
    k = max(1, int(opts.get('max_preview_items', 10)) // 2)
    for i, (name, c) in enumerate(coords.items()):
        if i >= _MAX_ITEMS:
            break
        var = c.variable
        e = {'name': str(name), 'dims': [str(d) for d in var.dims], 'dtype': str(var.dtype), 'size': int(var.size)}
        if name in indexes:
            e['index'] = True
        data = _xr_data(np, var)
        if data is None:
            e['lazy'] = True
        elif data.ndim == 1:
            tr = _Trunc()
            e['values'] = _edges(np, data, k, tr)
        out.append(e)
    return out


def _xr_dims(obj):
    return [{'name': str(d), 'size': int(n)} for d, n in obj.sizes.items()]


def _inspect_dataarray(da, opts, B, res):
    np = _mod('numpy')
    var = da.variable
    data = _xr_data(np, var)
    if data is not None:
        sub = {'structure': {}, 'warnings': res['warnings']}
        _inspect_ndarray(data, opts, B, sub)
        st = res['structure'] = sub['structure']
        for key in ('preview', 'statistics'):
            if key in sub:
                res[key] = sub[key]
    else:
        st = res['structure'] = {'shape': [int(x) for x in da.shape], 'ndim': int(da.ndim), 'dtype': str(da.dtype),
                                 'size': int(da.size), 'nbytes': int(da.nbytes)}
        res['warnings'].append(_xr_lazy_warning(var, 'its data'))
    if da.name is not None:
        st['array_name'] = _cut(str(da.name), _MAX_STR, _Trunc())
    st['dims'] = _xr_dims(da)
    st['coords'] = _xr_coords(np, da.coords, da.indexes, opts)
    if da.attrs:
        st['attrs'] = _xr_attrs(da.attrs)


def _array_nulls(np, pd, a):
    k = a.dtype.kind
    if k in 'fc':
        return int(np.count_nonzero(np.isnan(a)))
    if k in 'mM':
        return int(np.count_nonzero(np.isnat(a)))
    if k == 'O' and pd is not None:
        return int(np.count_nonzero(pd.isnull(a)))
    return 0


def _inspect_dataset(ds, opts, B, res):
    np, pd = _mod('numpy'), _mod('pandas')
    st = res['structure'] = {'dims': _xr_dims(ds)}
    dvs = st['data_vars'] = []
    stats = opts.get('include_statistics', True)
    n = len(ds.data_vars)
    for i, (name, v) in enumerate(ds.data_vars.items()):
        if i >= _PREVIEW_COLUMNS:
            res['warnings'].append('%d data variables: the first %d are listed' % (n, _PREVIEW_COLUMNS))
            break
        var = v.variable
        e = {'name': str(name), 'dims': [str(d) for d in var.dims], 'dtype': str(var.dtype), 'size': int(var.size)}
        data = _xr_data(np, var)
        if data is None:
            e['lazy'] = True
        elif stats and B.ok('null_counts'):
            e['null_count'] = _array_nulls(np, pd, data)
        dvs.append(e)
    if any(e.get('lazy') for e in dvs):
        res['warnings'].append('lazy data variables (dask or not yet loaded) are never computed or loaded: no null counts')
    st['coords'] = _xr_coords(np, ds.coords, ds.indexes, opts)
    try:
        st['memory_bytes'] = int(ds.nbytes)
        if any(e['dtype'] == 'object' for e in dvs + st['coords']):
            st['memory_estimated'] = True  # object elements are not counted
    except Exception:
        pass
    if ds.attrs:
        st['attrs'] = _xr_attrs(ds.attrs)


def _inspect_polars(df, opts, B, res, is_df):
    st = res['structure'] = {}
    try:
        if is_df:
            st['shape'] = [int(x) for x in df.shape]
            st['column_count'] = int(df.width)
            st['columns'] = [{'name': str(n), 'dtype': str(d)} for n, d in zip(df.columns, df.dtypes)]
            try:
                nulls = df.null_count().row(0)
                for c, k in zip(st['columns'], nulls):
                    c['null_count'] = int(k)
            except Exception:
                pass
            rows = int(opts.get('max_preview_rows', 5))
            tr = _Trunc()
            head = df.head(rows)
            res['preview'] = {'columns': [c['name'] for c in st['columns'][:_PREVIEW_COLUMNS]],
                              'head': [{'index': i, 'values': [_cell(x, 1, tr) for x in r[:_PREVIEW_COLUMNS]]} for i, r in enumerate(head.rows())]}
        else:
            st['shape'] = [int(len(df))]
            st['length'] = int(len(df))
            st['dtype'] = str(df.dtype)
            st['series_name'] = str(df.name)
            tr = _Trunc()
            res['preview'] = {'items': [{'index': i, 'value': _cell(x, 1, tr)} for i, x in enumerate(df.head(int(opts.get('max_preview_items', 10))).to_list())]}
        st['memory_bytes'] = int(df.estimated_size())
        st['memory_estimated'] = True
    except Exception as e:
        res['warnings'].append('polars inspection failed: %s' % _short(type(e)))


def _inspect_arrow(tb, opts, B, res):
    st = res['structure'] = {}
    try:
        st['shape'] = [int(tb.num_rows), int(tb.num_columns)]
        st['column_count'] = int(tb.num_columns)
        st['columns'] = [{'name': str(f.name), 'dtype': str(f.type), 'null_count': int(tb.column(i).null_count)}
                         for i, f in enumerate(tb.schema)]
        st['memory_bytes'] = int(tb.nbytes)
        rows = int(opts.get('max_preview_rows', 5))
        tr = _Trunc()
        head = tb.slice(0, rows).to_pylist()
        names = [c['name'] for c in st['columns'][:_PREVIEW_COLUMNS]]
        res['preview'] = {'columns': names, 'head': [{'index': i, 'values': [_cell(r.get(n), 1, tr) for n in names]} for i, r in enumerate(head)]}
    except Exception as e:
        res['warnings'].append('pyarrow inspection failed: %s' % _short(type(e)))


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
    if _mod('torch') is not None and _is(obj, 'torch', 'Tensor'):
        return 'tensor'
    if _mod('polars') is not None:
        if _is(obj, 'polars', 'DataFrame'):
            return 'polars_df'
        if _is(obj, 'polars', 'Series'):
            return 'polars_series'
    if _mod('pyarrow') is not None and _is(obj, 'pyarrow', 'Table'):
        return 'arrow_table'
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
    'arrow_table': _inspect_arrow, 'dataarray': _inspect_dataarray, 'dataset': _inspect_dataset, 'object': _inspect_object, 'callable': _inspect_callable,
    'class': _inspect_class, 'module': _inspect_module, 'unknown': _inspect_unknown,
}
_BY_KIND_WITH_KIND = dict(
    [(k, _inspect_number) for k in ('none', 'bool', 'int', 'float', 'complex')]
    + [(k, _inspect_text) for k in ('str', 'bytes')]
    + [(k, _inspect_container) for k in ('dict', 'list', 'tuple', 'set', 'frozenset', 'deque')])


# Values whose preview cells get 4 significant digits (containers and
# objects keep 6: their items are values a user compares, e.g. in diffs).
_TABLE_KINDS = frozenset(('dataframe', 'series', 'index', 'ndarray', 'tensor', 'arrow_table', 'dataarray', 'dataset',
                          'polars_df', 'polars_series'))


def _inspect(obj, opts, B, res):
    kind = _classify(obj)
    _PREC.cell = 4 if kind in _TABLE_KINDS else 6
    res['type'] = _tname(type(obj))
    if kind == 'numpy_scalar':
        res['detected_type'] = {'b': 'bool', 'i': 'int', 'u': 'int', 'f': 'float', 'c': 'complex'}.get(obj.dtype.kind, 'unknown')
    elif kind in ('polars_df', 'polars_series'):
        res['detected_type'] = 'dataframe' if kind == 'polars_df' else 'series'
        _inspect_polars(obj, opts, B, res, kind == 'polars_df')
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


# ---------------------------------------------------------------- summaries
# One line per value for the editor's own views and agents' stop reports,
# many values per call. Unlike _inspect these run NO user code: a value is
# classified by its type's MRO only; builtins are shown by value, known
# library types (pandas, numpy, torch, xarray, polars, pyarrow) through
# their own cheap accessors, anything else by class name and attribute
# count (read from __dict__ without __getattribute__, __repr__ or __len__).

_SUM_STATS_LIMIT = 2000000  # elements above which stats are not computed
_SUM_STR = 80


def _type_is(t, prefix, name):
    for c in getattr(t, '__mro__', (t,)):
        try:
            if c.__name__ == name and (c.__module__ == prefix or c.__module__.startswith(prefix + '.')):
                return True
        except Exception:
            pass
    return False


def _sum_kind(t):
    if t in (type(None), bool, int, float, complex):
        return 'scalar'
    if t in (str, bytes, bytearray):
        return 'text'
    if t in (list, tuple, dict, set, frozenset):
        return 'container'
    for prefix, name, kind in (('pandas', 'DataFrame', 'dataframe'), ('pandas', 'Series', 'series'),
                               ('pandas', 'Index', 'index'), ('numpy', 'ndarray', 'ndarray'),
                               ('numpy', 'generic', 'numpy_scalar'), ('torch', 'Tensor', 'tensor'),
                               ('xarray', 'DataArray', 'dataarray'), ('xarray', 'Dataset', 'dataset'),
                               ('polars', 'DataFrame', 'polars_df'), ('polars', 'Series', 'polars_series'),
                               ('pyarrow', 'Table', 'arrow_table')):
        if _mod(prefix) is not None and _type_is(t, prefix, name):
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
    kind = _sum_kind(t)
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
            out['memory'] = int(obj.memory_usage(index=True, deep=False).sum())
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
        out['shape'] = list(obj.shape)
        out['dtype'] = str(obj.dtype).replace('torch.', '')
        out['device'] = str(obj.device)
        if obj.requires_grad:
            out['requires_grad'] = True
        if np is not None and obj.numel() <= _SUM_STATS_LIMIT and obj.device.type == 'cpu' and not obj.is_complex():
            try:
                _sum_nums(np, obj.detach().numpy(), out)
            except Exception:
                pass
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
    elif kind in ('polars_df', 'polars_series', 'arrow_table'):
        out['shape'] = list(obj.shape)
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


def _frame_locals(L, G):
    """The names of the frame's own locals. pydevd evaluates in a merged
    mapping (the frame's globals, its locals, and a 'globals' function it
    adds), so the frame is found on the stack (pydevd's evaluate_expression
    holds it as `frame`): its f_locals, or at module level its globals. If it
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
                return [k for k in own.keys() if not k.startswith('__')]
            break
        f = f.f_back
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
    _set_precision(False, 6)
    B = _Budget(float(args.get('timeout', 0.05)))
    items = []
    names = args.get('names')
    if names is None:  # every local of the frame
        names = [[['name', k]] for k in _frame_locals(L, G)[:args.get('limit', 200)]]
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
        except _ProbeError as e:
            item['error'] = e.code
        except Exception as e:
            item['error'] = '%s: %s' % (_short(type(e)), str(e)[:120])
        items.append(item)
    return json.dumps({'items': items}, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))


# ---------------------------------------------------------------- selection
# Browse the whole value: a window of rows of the sorted/filtered view of a
# table (DataFrame, Series, 1-D/2-D array, list of records), chosen columns,
# the positions of the rows in the original value. The sorted/filtered order
# is cached per value, selection and stop (dropped when the stop changes),
# bounded in memory.

_SEL = {'gen': None, 'cache': {}, 'bytes': 0, 'tick': 0}
_SEL_LIMIT = 256 * 1024 * 1024
_MAX_PAGE = 1000
_PREFIX = 10000        # rows of a one-column sort computed first, in O(n)
_PREFIX_MIN = 100000   # rows from which that prefix is worth it


def _sel_frame(obj, pd):
    """The value as a DataFrame (no copy for a DataFrame) and its kind."""
    if _is(obj, 'pandas', 'DataFrame'):
        return obj, 'dataframe'
    if _is(obj, 'pandas', 'Series'):
        return obj.to_frame(name=obj.name if obj.name is not None else 'value'), 'series'
    np = _mod('numpy')
    if np is not None and isinstance(obj, np.ndarray):
        if obj.ndim not in (1, 2):
            raise _ProbeError('INVALID_ARGUMENT', 'only 1-D and 2-D arrays can be browsed (this one is %d-D)' % obj.ndim)
        if obj.ndim == 1:
            return pd.DataFrame({'value': obj}), 'ndarray'
        return pd.DataFrame(obj).rename(columns=str), 'ndarray'  # columns "0", "1", … (query: `0` > 1)
    if type(obj) in (list, tuple) and obj and all(type(r) is dict for r in obj[:1000]):
        return pd.DataFrame.from_records(list(obj)), 'records'
    raise _ProbeError('INVALID_ARGUMENT', 'a %s cannot be browsed by rows (DataFrame, Series, 1-D/2-D arrays and lists of dicts can)' % _short(type(obj)))


def _sel_columns(df, spec):
    """Positions of the chosen columns: labels, positions (ints) or globs."""
    labels = [_label(c)[0] for c in df.columns]
    if not spec:
        return list(range(len(labels)))
    import fnmatch
    out = []
    for s in spec:
        if isinstance(s, int) and not isinstance(s, bool):
            if not -len(labels) <= s < len(labels):
                raise _ProbeError('INVALID_ARGUMENT', 'column position %d is outside 0..%d' % (s, len(labels) - 1))
            hits = [s % len(labels)]
        elif isinstance(s, str) and any(ch in s for ch in '*?['):
            hits = [i for i, l in enumerate(labels) if fnmatch.fnmatchcase(l, s)]
        else:
            hits = [i for i, l in enumerate(labels) if l == str(s)]
        if not hits:
            raise _ProbeError('VARIABLE_NOT_FOUND', 'no column matches %r' % (s,), 'columns are listed in available_variables', labels[:50])
        for i in hits:
            if i not in out:
                out.append(i)
    return out


def _rank_key(np, pd, v, descending):
    """(key, nulls) for a column's values v: key is a numeric array whose
    stable ascending order is pandas' stable order of v (descending too),
    nulls a mask of the rows that go last (None: none, or NaN keys that
    numpy puts last anyway). Strings, categoricals, dates and extension
    arrays are ranked through pd.factorize and their distinct values' own
    order, so every one-column sort is a numeric one. None when the values
    do not compare (pandas then says why)."""
    if type(v) is np.ndarray:
        k = v.dtype.kind
        if k == 'f':
            return (-v if descending else v), None  # NaN stays NaN, which numpy puts last
        if k in 'iu':
            return (~v if descending else v), None  # ~ reverses the order, no overflow
        if k == 'b':
            x = v.view(np.uint8)
            return (~x if descending else x), None
        if k in 'mM':
            x, nul = v.view('i8'), np.isnat(v)
            return (~x if descending else x), (nul if nul.any() else None)
    try:
        codes, uniques = pd.factorize(v)
        uo = np.argsort(uniques, kind='stable') if type(uniques) is np.ndarray else np.asarray(uniques.argsort())
    except Exception:
        return None
    rank = np.empty(len(uo), dtype=np.int64)
    rank[uo] = np.arange(len(uo))
    nul = codes < 0
    # a null's code (-1) reads some rank; the mask puts it last
    key = rank[codes] if len(uo) else np.zeros(len(codes), dtype=np.int64)
    return (-key if descending else key), (nul if nul.any() else None)


def _combined_key(np, keys):
    """One int64 key ordering rows like the integer keys in sequence (nulls
    last in each), when their value ranges multiply within int64; None
    otherwise (floats, wide ranges): then numpy's lexsort."""
    parts, total = [], 1
    for key, nul in keys:
        if key.dtype.kind not in 'iub' or key.shape[0] == 0:
            return None
        vals = key if nul is None else key[~nul]
        lo, hi = (int(vals.min()), int(vals.max())) if vals.shape[0] else (0, 0)
        span = hi - lo + 1 + (nul is not None)
        total *= span
        if total >= 2 ** 62:
            return None
        parts.append((key, lo, span, nul))
    out = np.zeros(keys[0][0].shape[0], dtype=np.int64)
    for key, lo, span, nul in parts:
        out *= span
        k = key.astype(np.int64) - lo if key.dtype.kind != 'u' else (key - np.uint64(lo)).astype(np.int64)
        if nul is not None:
            k[nul] = span - 1
        out += k
    return out


def _rank_order(np, keys, want):
    """Positions of the stable sort by keys ((key, nulls) pairs, first key
    first; nulls last in each) and whether the order is complete: with want
    rows needed, one key over a big view gives only its first _PREFIX rows."""
    if len(keys) > 1:
        one = _combined_key(np, keys)
        if one is not None:
            return _rank_order(np, [(one, None)], want)
        seq = []
        for key, nul in reversed(keys):  # lexsort's last key is the primary one
            seq.append(key)
            if nul is not None:
                seq.append(nul)
        return np.lexsort(seq), True
    key, nul = keys[0]
    idx = None
    if nul is not None:
        idx = np.flatnonzero(~nul)
        key = key[idx]
    perm = None
    if want is not None and want <= _PREFIX and key.shape[0] >= _PREFIX_MIN:
        perm = _sorted_prefix(np, key, _PREFIX)
    full = perm is None
    if full:
        perm = np.argsort(key, kind='stable')
    if idx is not None:
        perm = idx[perm]
        if full:
            perm = np.concatenate((perm, np.flatnonzero(nul)))
    return perm, full


def _sorted_prefix(np, key, k):
    """Positions of the first k rows of the stable ascending sort of key,
    in O(n) (a partition, then a sort of k candidates); None when key has
    fewer than k non-NaN values."""
    t = np.partition(key, k - 1)[k - 1]
    if t != t:
        return None
    lt = np.flatnonzero(key < t)
    eq = np.flatnonzero(key == t)[:k - lt.shape[0]]  # ties: the first ones by position
    cand = np.concatenate((lt, eq))
    cand.sort()
    return cand[np.argsort(key[cand], kind='stable')]


def _sel_order(df, sel, np, B, want=None):
    """Positions of the filtered, sorted view (None: all rows in order) and
    whether they are complete. With want (rows needed), a one-column sort
    (of any ranked dtype) of a big view returns only its first _PREFIX rows
    (O(n), not a full sort of millions of values); a later page asks for
    the rest."""
    order = None
    flt = sel.get('filter')
    if flt:
        try:
            mask = df.eval(flt)
        except Exception as e:
            at = getattr(e, 'offset', None)
            where = ' at column %d' % at if isinstance(at, int) and at > 0 else ''
            raise _ProbeError('INVALID_EXPRESSION', 'filter %r%s: %s: %s' % (_cut(flt, 200, _Trunc()), where, _short(type(e)), _cut(str(e), 300, _Trunc())),
                              'use DataFrame.query syntax over the column names, e.g. price > 10 and city == "Nice"')
        try:
            m = np.asarray(mask.to_numpy() if hasattr(mask, 'to_numpy') else mask)
        except Exception:
            m = None
        if m is None or m.shape != (len(df),) or m.dtype.kind != 'b':
            raise _ProbeError('INVALID_EXPRESSION', 'filter %r does not give one true/false per row' % _cut(flt, 200, _Trunc()))
        order = np.flatnonzero(m)
    sort = sel.get('sort') or []
    if sort:
        cols = _sel_columns(df, [k['column'] for k in sort])
        if len(cols) != len(sort):
            raise _ProbeError('INVALID_ARGUMENT', 'sort names each column once')
        n = len(df) if order is None else len(order)
        pd = _mod('pandas')
        keys = []
        for c, k in zip(cols, sort):
            v = _col_values(df, c)
            keys.append(_rank_key(np, pd, v if order is None else _take_values(v, order), bool(k.get('descending'))))
            if keys[-1] is None:
                break
        if keys[-1] is not None:  # numpy on numeric keys, as pandas' nargsort/lexsort_indexer do
            perm, full = _rank_order(np, keys, want)
            return (perm if order is None else order[perm]), full, n
        view = df if order is None else df.iloc[order]
        keys = view.iloc[:, cols]
        keys.columns = range(len(cols))
        keys = keys.reset_index(drop=True)
        try:
            perm = keys.sort_values(by=list(range(len(cols))), ascending=[not k.get('descending') for k in sort],
                                    kind='stable', na_position='last').index.to_numpy()
        except Exception as e:
            raise _ProbeError('INVALID_ARGUMENT', 'cannot sort by %s: %s: %s' % ([k['column'] for k in sort], _short(type(e)), _cut(str(e), 200, _Trunc())))
        order = perm if order is None else order[perm]
    return order, True, (len(df) if order is None else len(order))


def _select(L, G, args_json):
    t0 = time.perf_counter()
    args = json.loads(args_json)
    path = [tuple(p) for p in args['path']]
    sel = args.get('selection') or {}
    _set_precision(args.get('precision') == 'full', 6)
    B = _Budget(float(args.get('timeout', 2.0)))
    pd, np = _mod('pandas'), _mod('numpy')
    if pd is None or np is None:
        raise _ProbeError('INVALID_ARGUMENT', 'browsing rows needs pandas and numpy in the debuggee')
    if _SEL['gen'] != args.get('gen'):
        _SEL.update(gen=args.get('gen'), cache={}, bytes=0)
    obj = _resolve(L, G, path)
    df, kind = _sel_frame(obj, pd)
    n = len(df)
    rows = sel.get('rows') or {}
    off = max(0, int(rows.get('offset', 0)))
    lim = min(_MAX_PAGE, max(0, int(rows.get('limit', 100))))
    key = (id(obj), json.dumps([sel.get('filter'), sel.get('sort')], sort_keys=True, default=str))
    hit = _SEL['cache'].get(key)
    cached = hit is not None and (hit['full'] or off + lim <= len(hit['order']))
    if cached:
        order, total = hit['order'], hit['total']
        _SEL['tick'] += 1
        hit['tick'] = _SEL['tick']
    else:
        if hit is not None:
            _SEL['bytes'] -= _SEL['cache'].pop(key)['order'].nbytes
        order, full, total = _sel_order(df, sel, np, B, want=None if hit is not None else off + lim)
        if order is not None:
            _SEL['tick'] += 1
            _SEL['cache'][key] = {'order': order, 'total': total, 'full': full, 'tick': _SEL['tick']}
            _SEL['bytes'] += order.nbytes
            while _SEL['bytes'] > _SEL_LIMIT and len(_SEL['cache']) > 1:
                old = min((k for k in _SEL['cache'] if k != key), key=lambda k: _SEL['cache'][k]['tick'])
                _SEL['bytes'] -= _SEL['cache'].pop(old)['order'].nbytes
    pos = np.arange(off, min(off + lim, total)) if order is None else order[off:off + lim]
    cols = _sel_columns(df, sel.get('columns'))
    tr = _Trunc()
    # cells column by column (a take per column, each cell formatted once as
    # JSON text), joined into rows at the end
    values = [_col_values(df, i) for i in cols]
    texts = [_page_json(np, _take_values(v, pos), tr) for v in values]
    page = {
        'kind': kind, 'total_rows': int(total), 'all_rows': int(n), 'offset': off, 'limit': lim,
        'positions': pos.tolist(),
        'columns': [{'name': _label(df.columns[i])[0], 'dtype': _dtype_str(v.dtype)} for i, v in zip(cols, values)],
        'column_count': int(df.shape[1]),
        'cached': cached,
    }
    labels = _index_cells(np, df.index, pos, tr) if kind in ('dataframe', 'series') else None
    if labels is not None:
        page['index'] = labels
    if sel.get('filter'):
        page['filter'] = sel['filter']
    if sel.get('sort'):
        page['sort'] = sel['sort']
    res = {'name': _path_str(path), 'type': _tname(type(obj))}
    if tr.hit:
        res['warnings'] = ['some cells were shortened']
    if not B.ok('selection'):
        res['partial'] = True
        res['timed_out'] = B.timed_out
    rows = '[' + ','.join('[' + ','.join(r) + ']' for r in zip(*texts)) + ']' if texts else '[' + ','.join(['[]'] * len(pos)) + ']'
    res['probe_ms'] = round((time.perf_counter() - t0) * 1000, 3)
    res['page'] = page
    page['rows'] = None  # last key of the last key: spliced in below
    text = json.dumps(res, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
    assert text.endswith('"rows":null}}')
    return text[:-len('null}}')] + rows + '}}'


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
        return _run(L, G, args_json)
    finally:
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
        return _summarize(L, G, args_json)
    except Exception as e:
        return json.dumps({'error': {'code': 'INTERNAL', 'message': 'summaries failed: %s: %s' % (_short(type(e)), str(e)[:300])}}, default=str)
    finally:
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
        _set_precision(opts.get('precision') == 'full', 6)
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
