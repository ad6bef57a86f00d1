# dapscope lldb probe: finding the inspected value — a local, an argument,
# a global or a static (a Rust `static` under its module path too) — and
# walking the path (fields, indexes, keys) through pointers, Box, Rc and
# Arc, by reading debug information only.

def _find_root(frame, target, name):
    v = frame.FindVariable(name)
    if v.IsValid():
        return v
    import lldb
    for kind in (lldb.eValueTypeVariableStatic, lldb.eValueTypeVariableGlobal):
        v = frame.FindValue(name, kind)
        if v.IsValid():
            return v
    v = target.FindFirstGlobalVariable(name)
    if v.IsValid():
        return v
    # A Rust static is named by its path (prices::LIMIT): match the last part.
    found = target.FindGlobalVariables(name, 1)
    if found.GetSize():
        return found.GetValueAtIndex(0)
    found = target.FindGlobalVariables('::' + name, 1, lldb.eMatchTypeEndsWith) if hasattr(lldb, 'eMatchTypeEndsWith') else None
    if found is not None and found.GetSize():
        return found.GetValueAtIndex(0)
    return None


def _frame_names(frame):
    names = []
    vs = frame.GetVariables(True, True, False, True)
    for i in range(min(vs.GetSize(), 200)):
        n = vs.GetValueAtIndex(i).GetName()
        if n and n not in names:
            names.append(n)
    return names


_SMART = ('alloc::boxed::Box<', 'alloc::rc::Rc<', 'alloc::sync::Arc<', 'std::unique_ptr<', 'std::shared_ptr<',
          'std::__1::unique_ptr<', 'std::__1::shared_ptr<')


def _follow(v, followed):
    """Box, Rc, Arc and the C++ smart pointers: the value they hold (the
    formatters' own child, else the pointer's target)."""
    for _ in range(4):
        v = _strip(v)
        name = v.GetTypeName() or ''
        if not name.startswith(_SMART):
            t = _canon(v)
            if t.IsPointerType() and v.GetValueAsUnsigned() and not _is_cstring(t) and t.GetPointeeType().GetByteSize() > 0 \
                    and not _canon(v).GetPointeeType().IsPointerType():
                # Box<T> is a plain pointer in DWARF; any pointer is followed
                # to its target (ptr@N reads N elements instead)
                followed.append('pointer %s' % name)
                v = v.Dereference()
                continue
            return v
        followed.append(name.split('<', 1)[0])
        inner = None
        if name.startswith(('alloc::rc::Rc<', 'alloc::sync::Arc<')):
            raw = v.GetNonSyntheticValue()
            p = raw.GetChildMemberWithName('ptr')
            while p.IsValid() and not p.GetType().IsPointerType() and p.GetNumChildren():
                p = p.GetChildAtIndex(0)
            if p.IsValid() and p.GetType().IsPointerType():
                inner = p.Dereference()
                for field in ('value', 'data'):
                    c = inner.GetChildMemberWithName(field)
                    if c.IsValid():
                        inner = c
                        break
        elif v.GetType().IsPointerType():
            inner = v.Dereference()
        else:
            for i in range(v.GetNumChildren()):
                c = v.GetChildAtIndex(i)
                if c.GetType().IsPointerType():
                    inner = c.Dereference()
                    break
            if inner is None and v.GetNumChildren():
                inner = v.GetChildAtIndex(0)
        if inner is None or not inner.IsValid():
            return v
        v = inner
    return v


def _child_named(v, name):
    c = v.GetChildMemberWithName(name)
    if c.IsValid():
        return c
    for i in range(min(v.GetNumChildren(), 10000)):
        c = v.GetChildAtIndex(i)
        if c.GetName() == name:
            return c
    return None


def _map_entry(v, key):
    """The value under key in a map (its formatter's children: Rust's
    (k, v) tuples, C++'s pairs)."""
    n = v.GetNumChildren()
    for i in range(min(n, 100000)):
        c = v.GetChildAtIndex(i)
        k, val = _pair(c)
        if k is None:
            return None
        if _cell(k, 0, _Trunc()) == key:
            return val
    return None


def _pair(c):
    for a, b in (('0', '1'), ('first', 'second'), ('key', 'value')):
        k = c.GetChildMemberWithName(a)
        if k.IsValid():
            return k, c.GetChildMemberWithName(b)
    if c.GetNumChildren() == 2:
        return c.GetChildAtIndex(0), c.GetChildAtIndex(1)
    return None, None


def _walk(frame, target, path):
    """The value at path, the steps that followed a pointer, and the
    error result if it cannot be reached."""
    root = path[0][1]
    v = _find_root(frame, target, root)
    if v is None:
        return None, [], _fail('VARIABLE_NOT_FOUND', 'no variable %r in the frame or the program\'s globals' % root,
                               available_variables=_frame_names(frame))
    followed = []
    length = None
    for kind, key in path[1:]:
        if kind == 'len':
            length = int(key)
            continue
        v = _follow(v, followed)
        if _canon(v).IsPointerType() and kind == 'attr':
            v = v.Dereference()
        if kind == 'attr':
            c = _child_named(v, key)
        elif isinstance(key, str):
            c = _map_entry(v, key)
        elif _canon(v).IsPointerType():
            c = v.GetChildAtIndex(key, 0, True) if key >= 0 else None
        else:
            n = v.GetNumChildren()
            k = key + n if key < 0 else key
            c = v.GetChildAtIndex(k) if 0 <= k < n else None
            if c is None:
                c = _map_entry(v, key)
        if c is None or not c.IsValid():
            return None, followed, _fail('INVALID_PATH', 'no %s %r in %s' % ('field' if kind == 'attr' else 'item', key, v.GetTypeName()))
        v = c
    if length is None:
        v = _follow(v, followed)
    return (v, length), followed, None
