# dapscope lldb probe: Rust Vec, slices and String shown without the Rust
# toolchain's formatters (a session whose configuration loads none, e.g.
# the LLVM extension's lldb-dap bridged from VS Code): their raw fields
# read as the formatters would — a Vec's element type from its first
# template argument, its length from `len` and its buffer from the first
# pointer under `buf` (RawVec → RawVecInner → Unique → NonNull); a slice's
# `data_ptr` and `length`; a String's bytes as UTF-8. Only for values with
# no synthetic children (with the formatters, their own view is used).

def _rust_raw_seq(v):
    """(address, element SBType, count) of a raw Rust Vec or slice; None
    otherwise."""
    if v.IsSynthetic():
        return None
    name = v.GetTypeName() or ''
    raw = v.GetNonSyntheticValue()
    if name.startswith('alloc::vec::Vec<'):
        ln, p = raw.GetChildMemberWithName('len'), raw.GetChildMemberWithName('buf')
        et = v.GetType().GetTemplateArgumentType(0)
        if not (ln.IsValid() and p.IsValid() and et.IsValid()):
            return None
        for _ in range(8):
            if not p.IsValid() or p.GetType().IsPointerType():
                break
            p = p.GetChildAtIndex(0)
        if not p.IsValid() or not p.GetType().IsPointerType():
            return None
        return p.GetValueAsUnsigned(), et, ln.GetValueAsUnsigned()
    if name.startswith(('&[', '&mut [', '*const [', '*mut [')):
        dp, ln = raw.GetChildMemberWithName('data_ptr'), raw.GetChildMemberWithName('length')
        if dp.IsValid() and ln.IsValid() and dp.GetType().IsPointerType():
            return dp.GetValueAsUnsigned(), dp.GetType().GetPointeeType(), ln.GetValueAsUnsigned()
    return None


def _rust_raw_text(v, limit):
    """(text, length in bytes) of a raw Rust String or &str (at most limit
    bytes read, as UTF-8 with replacement), or None."""
    if v.IsSynthetic():
        return None
    name = v.GetTypeName() or ''
    if name.startswith('alloc::string::String'):
        seq = _rust_raw_seq(v.GetNonSyntheticValue().GetChildMemberWithName('vec'))
    elif name.startswith(('&str', '&mut str')):
        raw = v.GetNonSyntheticValue()
        dp, ln = raw.GetChildMemberWithName('data_ptr'), raw.GetChildMemberWithName('length')
        seq = (dp.GetValueAsUnsigned(), None, ln.GetValueAsUnsigned()) if dp.IsValid() and ln.IsValid() else None
    else:
        return None
    if seq is None:
        return None
    addr, _et, n = seq
    if n == 0:
        return '', 0
    data = _read(v.GetProcess(), addr, min(n, limit))
    return bytes(data).decode('utf-8', 'replace'), n
