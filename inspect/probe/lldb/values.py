# dapscope lldb probe: what a value is and how it is shown — numbers in
# memory as an array (with statistics), strings, maps, other sequences,
# Option/std::optional and enums, structs, pointers, scalars — from the
# formatters' children and summaries, which read memory and run nothing.

_STRINGS = ('alloc::string::String', '&str', 'std::string', 'std::__cxx11::basic_string<', 'std::basic_string<',
            'std::__1::basic_string<', '&mut str')
_MAPS = ('std::collections::hash::map::HashMap<', 'alloc::collections::btree::map::BTreeMap<', 'std::map<',
         'std::unordered_map<', 'std::__1::map<', 'std::__1::unordered_map<', 'std::multimap<',
         'std::collections::hash::set::HashSet<', 'alloc::collections::btree::set::BTreeSet<', 'std::set<',
         'std::unordered_set<')
_OPTIONAL = ('core::option::Option<', 'std::optional<', 'std::__1::optional<', 'core::result::Result<')


def _cell(v, depth, tr):
    """A bounded JSON-safe rendering of v for previews."""
    why = _unavailable(v)
    if why:
        return '<%s>' % why
    v = _strip(v)
    t = _canon(v)
    num = _numeric(t)
    if num is not None and v.GetNumChildren() == 0:
        return _scalar(v, num)
    name = v.GetTypeName() or ''
    if name.startswith(_STRINGS) or _is_cstring(t):
        s = _unquote(v.GetSummary() or '')
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
    if name.startswith(_MAPS):
        return 'map'
    if name.startswith(_OPTIONAL):
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


def _is_enum(v, t):
    """A Rust enum: DWARF variant parts, which lldb shows as one child
    named after the active variant (or a '$variants$' member)."""
    raw = v.GetNonSyntheticValue()
    for i in range(min(raw.GetNumChildren(), 4)):
        n = raw.GetChildAtIndex(i).GetName() or ''
        if n.startswith('$variant'):
            return True
    return t.GetTypeClass() == lldbmod().eTypeClassEnumeration
