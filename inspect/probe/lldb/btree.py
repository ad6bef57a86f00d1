# dapscope lldb probe: Rust's BTreeMap and BTreeSet, which have no lldb
# formatter: their entries in key order, read by walking the tree's nodes
# (LeafNode keys and vals, InternalNode edges) from the root, at most
# `limit` of them. A BTreeSet<T> is a BTreeMap<T, SetValZST> named `map`.

_BTREE = 'alloc::collections::btree::map::BTreeMap<'
_BTSET = 'alloc::collections::btree::set::BTreeSet<'


def _unwrap(v):
    """MaybeUninit<T>, ManuallyDrop<T>, MaybeDangling<T>, NonNull<T>: the
    T inside."""
    for _ in range(6):
        n = v.GetTypeName() or ''
        if n.startswith(('core::mem::maybe_uninit::MaybeUninit<', 'core::mem::manually_drop::ManuallyDrop<')):
            c = v.GetChildMemberWithName('value')
        elif n.startswith('core::mem::maybe_dangling::MaybeDangling<'):
            c = v.GetChildAtIndex(0)
        elif n.startswith('core::ptr::non_null::NonNull<'):
            c = v.GetChildMemberWithName('pointer')
        else:
            return v
        if not c.IsValid():
            return v
        v = c
    return v


def _internal_ptr_type(leaf):
    """InternalNode<K, V>*, from the type of a leaf's parent field
    (Option<NonNull<InternalNode<K, V>>>), whatever the variant."""
    vs = leaf.GetChildMemberWithName('parent').GetNonSyntheticValue().GetChildAtIndex(0)
    for i in range(vs.GetNumChildren()):
        val = vs.GetChildAtIndex(i).GetChildMemberWithName('value')
        if val.IsValid() and val.GetNumChildren():
            p = _unwrap(val.GetChildAtIndex(0))
            if p.GetType().IsPointerType():
                return p.GetType()
    return None


def _btree(v, limit):
    """(length, [(key, value) SBValues in order, at most limit])."""
    raw = v.GetNonSyntheticValue()
    length = raw.GetChildMemberWithName('length').GetValueAsUnsigned()
    root = _active_variant(raw.GetChildMemberWithName('root'))
    if root is None or root[0] != 'Some' or not root[1]:
        return length, []
    nodeRef = root[1][0]
    height = nodeRef.GetChildMemberWithName('height').GetValueAsUnsigned()
    node = _unwrap(nodeRef.GetChildMemberWithName('node'))
    internal = _internal_ptr_type(node.Dereference())
    out = []

    def walk(ptr, h):
        if len(out) >= limit or not ptr.GetValueAsUnsigned():
            return
        leaf = ptr.Dereference()
        n = leaf.GetChildMemberWithName('len').GetValueAsUnsigned()
        keys, vals = leaf.GetChildMemberWithName('keys'), leaf.GetChildMemberWithName('vals')
        edges = None
        if h > 0 and internal is not None:
            edges = ptr.Cast(internal).Dereference().GetChildMemberWithName('edges')
        for i in range(n + 1):
            if edges is not None:
                walk(_unwrap(edges.GetChildAtIndex(i)), h - 1)
            if i == n or len(out) >= limit:
                return
            out.append((_unwrap(keys.GetChildAtIndex(i)), _unwrap(vals.GetChildAtIndex(i))))

    walk(node, height)
    return length, out


def _btree_set(v, limit):
    """(length, [element SBValues in order, at most limit]) of a BTreeSet."""
    m = v.GetNonSyntheticValue().GetChildMemberWithName('map')
    if not m.IsValid():
        return 0, []
    n, pairs = _btree(m, limit)
    return n, [k for k, _ in pairs]


def _set(v, items, res, tr):
    n, elems = _btree_set(v, items)
    res['detected_type'] = 'set'
    res['structure'] = {'length': n}
    res['preview'] = {'items': [{'value': _cell(e, 1, tr), 'type': e.GetTypeName()} for e in elems]}
    if elems:
        res['structure']['element_type'] = elems[0].GetTypeName()
    if n > len(elems) or tr.hit:
        res['preview']['is_truncated'] = True
