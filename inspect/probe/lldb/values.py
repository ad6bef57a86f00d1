# dapscope lldb probe: what a value is and how it is shown — numbers in
# memory as an array (with statistics), strings, maps, other sequences,
# Option/std::optional and enums, structs, pointers, scalars — from the
# formatters' children and summaries, which read memory and run nothing.

_STRINGS = ('alloc::string::String', '&str', 'std::string', 'std::__cxx11::basic_string<', 'std::basic_string<',
            'std::__1::basic_string<', '&mut str')
_MAPS = ('std::collections::hash::map::HashMap<', 'std::map<',
         'std::unordered_map<', 'std::__1::map<', 'std::__1::unordered_map<', 'std::multimap<',
         'std::collections::hash::set::HashSet<', 'std::set<',
         'std::unordered_set<')
_OPTIONAL = ('core::option::Option<', 'std::optional<', 'std::__1::optional<', 'core::result::Result<')


def _cell(v, depth, tr):
    """A bounded JSON-safe rendering of v for previews."""
    why = _unavailable(v)
    if why:
        return '<%s>' % why
    v = _strip(v)
    var = _active_variant(v)
    if var is not None:
        return _variant_text(var[0], [(f.GetName() or '', _cell(f, depth + 1, tr)) for f in var[1]])
    t = _canon(v)
    num = _numeric(t)
    if num is not None and v.GetNumChildren() == 0:
        return _scalar(v, num)
    name = v.GetTypeName() or ''
    if name.startswith(_STRINGS) or _is_cstring(t):
        s = _unquote(v.GetSummary() or '') or (_rust_raw_text(v, _LIMITS['max_str'] + 1) or ('',))[0]
        if s is not None and len(s) > _LIMITS['max_str']:
            tr.hit = True
            s = s[:_LIMITS['max_str']] + _ELL
        return s
    summ = v.GetSummary()
    if summ:
        return _clip(summ, _LIMITS['max_str'])
    if t.IsPointerType():
        return '0x%x' % v.GetValueAsUnsigned()
    n = v.GetNumChildren()
    if n == 0:
        val = v.GetValue()
        return val if val is not None else ''
    if depth >= _LIMITS['max_depth']:
        tr.hit = True
        return _ELL
    parts = []
    for i in range(min(n, 10)):
        c = v.GetChildAtIndex(i)
        cv = _cell(c, depth + 1, tr)
        nm = c.GetName() or ''
        parts.append(('%s: %s' % (nm, json.dumps(cv, ensure_ascii=False)) if nm and not nm.startswith('[') else json.dumps(cv, ensure_ascii=False)))
    if n > 10:
        tr.hit = True
        parts.append(_ELL)
    return _clip('{' + ', '.join(parts) + '}', _LIMITS['max_str'])


def _scalar(v, num):
    fmt, dtype = num
    if dtype == 'bool':
        return v.GetValueAsUnsigned() != 0
    if dtype.startswith('float'):
        data = v.GetData()
        import lldb
        err = lldb.SBError()
        x = data.GetDouble(err, 0) if dtype == 'float64' else data.GetFloat(err, 0)
        return x if x == x and x not in (math.inf, -math.inf) else str(x)
    if dtype.startswith('int'):
        return v.GetValueAsSigned()
    return v.GetValueAsUnsigned()


def _is_cstring(t):
    if t.IsPointerType():
        p = t.GetPointeeType().GetCanonicalType()
        return p.GetByteSize() == 1 and 'char' in (p.GetName() or '')
    if t.IsArrayType():
        e = t.GetArrayElementType().GetCanonicalType()
        return e.GetByteSize() == 1 and 'char' in (e.GetName() or '')
    return False


def _classify(v, t, length):
    name = v.GetTypeName() or ''
    if length is not None:
        return 'span'
    if _numeric(t) is not None and v.GetNumChildren() == 0:
        return 'scalar'
    if name.startswith(_STRINGS) or _is_cstring(t):
        return 'str'
    if name.startswith(_BTSET):
        return 'set'
    if name.startswith(_MAPS) or name.startswith(_BTREE):
        return 'map'
    if name.startswith(_OPTIONAL) or _active_variant(v) is not None:
        return 'option'
    if t.IsPointerType():
        return 'pointer'
    if t.IsArrayType() or _is_sequence(name):
        return 'sequence'
    if t.GetTypeClass() & (lldbmod().eTypeClassUnion) or _is_enum(v, t):
        return 'enum'
    if v.GetNumChildren() or t.GetTypeClass() & (lldbmod().eTypeClassStruct | lldbmod().eTypeClassClass):
        return 'struct'
    return 'scalar'


def lldbmod():
    import lldb
    return lldb


_SEQ = ('alloc::vec::Vec<', 'alloc::collections::vec_deque::VecDeque<', '&[', '&mut [', 'std::vector<',
        'std::array<', 'std::__1::vector<', 'std::__1::array<', 'std::deque<', 'std::list<', 'std::span<')


def _is_sequence(name):
    return name.startswith(_SEQ) or (name.startswith('[') and name.endswith(']'))


def _active_variant(v):
    """A Rust enum's active variant (name, fields), read from its DWARF
    variant part as lldb 19 shows it ($variants$ holding $variant$N with
    the discriminant $discr$, N the discriminant value, $variant$ the
    dataful default); None for other values. The Rust formatters' summary
    is not used: lldb 19 gives a niche-encoded enum's variants the wrong
    values and the formatter then reads garbage (Result<i32, String> as an
    Err with a String of petabytes). Here a discriminant with the top bit
    set also matches N on its low bits: rustc's niches in a capacity
    (Vec, String) lie above isize::MAX, and lldb 19 drops that bit."""
    raw = v.GetNonSyntheticValue()
    if raw.GetNumChildren() != 1:
        return None
    vs = raw.GetChildAtIndex(0)
    if vs.GetName() != '$variants$':
        return None
    default, chosen = None, None
    for i in range(vs.GetNumChildren()):
        c = vs.GetChildAtIndex(i)
        nm = c.GetName() or ''
        if nm == '$variant$':
            default = c
            continue
        d = c.GetChildMemberWithName('$discr$')
        try:
            want = int(nm[len('$variant$'):])
        except ValueError:
            continue
        got = d.GetValueAsUnsigned() if d.IsValid() else None
        if got is not None and (got == want or (got >> 63 and got & ((1 << 63) - 1) == want)):
            chosen = c
            break
    c = chosen or default
    if c is None:
        return None
    val = c.GetChildMemberWithName('value')
    name = (c.GetTypeName() or '').rsplit('::', 1)[-1]
    name = name[:-len('$Variant')] if name.endswith('$Variant') else (val.GetTypeName() or '').rsplit('::', 1)[-1].split('<')[0]
    fields = [val.GetChildAtIndex(j) for j in range(val.GetNumChildren())] if val.IsValid() else []
    return name, fields


def _variant_text(variant, cells):
    if not cells:
        return variant
    if all(nm.startswith(('__', '[')) or nm.isdigit() or nm == 'Value' for nm, _ in cells):
        return '%s(%s)' % (variant, ', '.join(json.dumps(c, ensure_ascii=False) for _, c in cells))
    return '%s { %s }' % (variant, ', '.join('%s: %s' % (nm, json.dumps(c, ensure_ascii=False)) for nm, c in cells))


def _is_enum(v, t):
    """A Rust enum: DWARF variant parts, which lldb shows as one child
    named after the active variant (or a '$variants$' member)."""
    if _active_variant(v) is not None:
        return True
    return t.GetTypeClass() == lldbmod().eTypeClassEnumeration
