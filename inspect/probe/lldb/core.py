# dapscope lldb probe: shared helpers. The probe runs in lldb's own Python,
# inside the debugger: it reads the program's memory and debug information
# (SBValue, SBType, SBProcess.ReadMemory) and never runs code in the
# program: no expression evaluation, no function call, no getter.

import json
import math
import struct

_ELL = '…'


class _Trunc(object):
    def __init__(self):
        self.hit = False


def _num(x, digits=None):
    """A float as JSON can hold it (NaN/inf as None), rounded to digits
    significant digits ("short" precision)."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return None
    if digits and x != 0:
        return float('%.*g' % (digits, x))
    return x


def _clip(s, n):
    if s is not None and len(s) > n:
        return s[:n] + _ELL
    return s


def _unquote(s):
    """A formatter's summary of a string ("abc") as its text."""
    if s and len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        body = s[1:-1]
        try:
            return json.loads('"' + body.replace('\\\'', '\'') + '"')
        except Exception:
            return body
    return s


def _fail(code, message, **extra):
    err = {'code': code, 'message': message}
    err.update(extra)
    return {'error': err}


def _unavailable(v):
    """Why v cannot be read (optimized out, no memory), or None."""
    if v is None or not v.IsValid():
        return 'not available'
    e = v.GetError()
    if e is not None and e.Fail():
        msg = e.GetCString() or 'unreadable'
        return 'optimized out' if 'optimized' in msg or 'not available' in msg else msg
    val = v.GetValue()
    if val is not None and ('optimized out' in val or 'not available' in val):
        return 'optimized out'
    return None


def _strip(v):
    """Follow references and typedefs: the value itself."""
    for _ in range(8):
        t = v.GetType()
        if t.IsReferenceType():
            v = v.Dereference()
            continue
        break
    return v


def _canon(v):
    return v.GetType().GetCanonicalType()


# Numeric element types: struct format by (is float, signed, size).
_FMT = {
    (True, True, 4): ('f', 'float32'), (True, True, 8): ('d', 'float64'),
    (False, True, 1): ('b', 'int8'), (False, True, 2): ('h', 'int16'),
    (False, True, 4): ('i', 'int32'), (False, True, 8): ('q', 'int64'),
    (False, False, 1): ('B', 'uint8'), (False, False, 2): ('H', 'uint16'),
    (False, False, 4): ('I', 'uint32'), (False, False, 8): ('Q', 'uint64'),
}


def _numeric(t):
    """(struct format, dtype name) of a numeric SBType, else None; bool is
    ('?', 'bool'); chars are numbers too (int8/uint8)."""
    import lldb
    t = t.GetCanonicalType()
    flags = t.GetTypeFlags()
    if not flags & lldb.eTypeIsBuiltIn and not flags & lldb.eTypeIsScalar:
        return None
    size = t.GetByteSize()
    if t.GetBasicType() == lldb.eBasicTypeBool or t.GetName() == 'bool':
        return ('?', 'bool') if size == 1 else None
    is_float = bool(flags & lldb.eTypeIsFloat)
    if not is_float and not flags & lldb.eTypeIsInteger:
        return None
    signed = True if is_float else bool(flags & lldb.eTypeIsSigned)
    return _FMT.get((is_float, signed, size))
