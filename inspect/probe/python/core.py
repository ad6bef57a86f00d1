# dapscope Python probe: core. The probe runs inside the debuggee (sent once
# per session by the sidecar, kept in sys.modules under a private name) and
# answers "what is this value?" with one JSON string. Stdlib only; pandas,
# numpy, torch, xarray, polars and pyarrow are used only when the debuggee
# already imported them. Never mutates what it inspects. The sections of
# inspect/probe/python are joined in one module by inspect/probe_python.go,
# after a _LIMITS header (inspect/limits.go). Entry points: entry.py.
# This section: imports, bounds, the budget, numbers, bounded reprs and cells.

import collections
import os
import sys
import time
import json
import math
import threading

# Bounds come from the sidecar (inspect/limits.go), in _LIMITS: a header
# it writes in front of these sources.
_MAX_STR = _LIMITS['max_str']          # chars per string in safe reprs and cells
_MAX_ITEMS = _LIMITS['max_items']      # items per container in safe reprs
_MAX_DEPTH = _LIMITS['max_depth']      # nesting depth of safe reprs and cells
_SAMPLE = _LIMITS['sample']            # numeric values sorted for quantiles, histogram, distinct
_OBJ_SAMPLE = _LIMITS['obj_sample']    # cells of object columns used for top values and lengths
_EXACT_LIMIT = _LIMITS['exact_limit']  # above this many elements, array stats are sampled
_ARRAY_SAMPLE = _LIMITS['array_sample']  # sample size for arrays over _EXACT_LIMIT
_STAT_COLUMNS = _LIMITS['stat_columns']  # columns that get statistics
_PREVIEW_COLUMNS = _LIMITS['preview_columns']  # columns shown in previews
_TYPE_SAMPLE = _LIMITS['type_sample']  # elements whose types are counted
_MAX_OUT = _LIMITS['max_out']          # bytes of one answer
_STAT = _LIMITS['stat_digits']         # significant digits of statistics
_CELL = _LIMITS['cell_digits']         # ... of preview cells and page cells
_TABLE_CELL = _LIMITS['table_cell_digits']  # ... of the preview cells of tables and arrays
_ELL = '\u2026'


class _ProbeError(Exception):
    def __init__(self, code, message, hint=None, available=None):
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.hint = hint
        self.available = available


_BUDGET_LOCK = threading.Lock()


class _Budget(object):
    def __init__(self, seconds):
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self.timed_out = []

    def left(self):
        """The share of the budget left (0 to 1)."""
        return max(0.0, self.deadline - time.perf_counter()) / self.seconds if self.seconds > 0 else 0.0

    def ok(self, what):
        if time.perf_counter() < self.deadline:
            return True
        with _BUDGET_LOCK:  # (the threads of a block pass share one budget)
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


def _num(x, digits=_CELL):
    """A finite float rounded to `digits` significant digits; inf as a
    string; NaN as None."""
    try:
        x = float(x)
    except Exception:
        return None
    if x - x != 0:  # NaN or ±inf (0.0 for every finite x)
        if x != x:
            return None
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
            return _num(v, getattr(_PREC, 'cell', _CELL))
        if t is str:
            return _cut(v, _MAX_STR, tr)
        if v is None or t is bool:
            return v
        if t is int or (isinstance(v, int) and not hasattr(v, '__dict__')):
            v = int(v)
            return v if -2 ** 63 <= v < 2 ** 64 else str(v)
        if isinstance(v, float):
            return _num(v, getattr(_PREC, 'cell', _CELL))
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
