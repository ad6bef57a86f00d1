# dapscope lldb probe: arrays of the Rust crate ndarray (ArrayBase: Array,
# ArrayView, ArcArray, CowArray of fixed dimension Ix1..Ix6) read from
# memory like the other arrays: the element pointer (`ptr`), the shape
# (`dim.index`) and the strides (`strides.index`, in elements, signed,
# stored as usize), fields of the ArrayBase (ndarray 0.16) or of its
# `parts` (0.17). A dense layout (row-major, column-major, any order of
# positive strides that packs the elements) is one read; a strided view
# (a slice with a step, negative strides) reads the span it covers and
# picks its elements. Dynamic dimensions (IxDyn) are not read. Nothing
# runs in the program.

_NDARRAY = 'ndarray::ArrayBase<'
# the ndarray span read for a strided view, at most this many times its elements
_ND_SPREAD = 16


def _nd_signed(u):
    return u - (1 << 64) if u >= 1 << 63 else u


def _nd_parts(v):
    """(address of the first element, element SBType, shape, strides) of
    an ndarray ArrayBase with a fixed dimension; None otherwise."""
    if not (v.GetTypeName() or '').startswith(_NDARRAY):
        return None
    raw = v.GetNonSyntheticValue()
    parts = raw.GetChildMemberWithName('parts')  # ndarray 0.17: ArrayParts
    if parts.IsValid():
        raw = parts
    p = raw.GetChildMemberWithName('ptr')
    if p.IsValid() and not p.GetType().IsPointerType():
        p = p.GetChildMemberWithName('pointer')  # NonNull<A>
    dim = raw.GetChildMemberWithName('dim').GetChildMemberWithName('index')
    st = raw.GetChildMemberWithName('strides').GetChildMemberWithName('index')
    if not (p.IsValid() and p.GetType().IsPointerType() and dim.IsValid() and st.IsValid()):
        return None
    if not dim.GetType().IsArrayType() or dim.GetNumChildren() != st.GetNumChildren():
        return None
    shape = [dim.GetChildAtIndex(i).GetValueAsUnsigned() for i in range(dim.GetNumChildren())]
    strides = [_nd_signed(st.GetChildAtIndex(i).GetValueAsUnsigned()) for i in range(st.GetNumChildren())]
    return p.GetValueAsUnsigned(), p.GetType().GetPointeeType(), shape, strides


def _nd_dense(shape, strides):
    """Whether the elements fill one block of memory starting at the first
    element (positive strides that pack them in some order)."""
    expect = 1
    for s, d in sorted((abs(s), d) for s, d in zip(strides, shape) if d != 1):
        if s != expect:
            return False
        expect *= d
    return all(s >= 0 for s, d in zip(strides, shape) if d != 1)


def _nd_layout(shape, strides):
    """(c_contiguous, f_contiguous) as numpy says them."""
    def packed(order):
        expect = 1
        for i in order:
            if shape[i] != 1 and strides[i] != expect:
                return False
            expect *= shape[i]
        return True
    n = len(shape)
    return packed(range(n - 1, -1, -1)), packed(range(n))


def _nd_count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _nd_values(process, addr, fmt, size, shape, strides, limit):
    """The elements in logical (row-major) order as a Python list: all of
    them, or limit evenly spaced ones; and whether they are a sample.
    Reads the span the view covers (one read) when it is at most
    _ND_SPREAD times the elements; raises MemoryError otherwise."""
    n = _nd_count(shape)
    lo = sum((d - 1) * s for s, d in zip(strides, shape) if s < 0 and d)
    hi = sum((d - 1) * s for s, d in zip(strides, shape) if s > 0 and d)
    span = hi - lo + 1
    if span > _ND_SPREAD * max(n, 1):
        raise MemoryError('a strided ndarray view spread over %d elements for %d: not read' % (span, n))
    buf = _decode(fmt, _read(process, addr + lo * size, span * size))
    pos = range(n) if n <= limit else [(j * n) // limit for j in range(limit)]
    out = []
    for flat in pos:
        off = -lo
        for s, d in reversed(list(zip(strides, shape))):
            flat, i = divmod(flat, d)
            off += i * s
        out.append(buf[off])
    return out, n > limit


def _nd_edges(vals, shape, k):
    """Edge items as nested lists (the first and last k of each axis, '…'
    between) of the elements vals in row-major order."""
    def at(prefix, axis, base):
        d = shape[axis]
        stride = _nd_count(shape[axis + 1:])
        idx = list(range(d)) if d <= 2 * k else list(range(k)) + [None] + list(range(d - k, d))
        row = []
        for i in idx:
            if i is None:
                row.append(_ELL)
            elif axis == len(shape) - 1:
                row.append(vals[base + i])
            else:
                row.append(at(prefix + [i], axis + 1, base + i * stride))
        return row
    return at([], 0, 0) if shape else []


def _nd_short(name, dtype):
    """Array2<f64>, ArrayView1<i32>, ArcArray2<f64>: an ArrayBase's type as
    ndarray's aliases write it."""
    rust = _RUST_NUM.get(dtype, dtype)
    ndim = name.rsplit('[', 1)[-1].split(']')[0] if 'Dim<' in name else ''
    kind = 'ArrayBase'
    for repr_, alias in (('OwnedRepr<', 'Array'), ('ViewRepr<', 'ArrayView'), ('OwnedArcRepr<', 'ArcArray'),
                         ('CowRepr<', 'CowArray'), ('RawViewRepr<', 'RawArrayView')):
        if repr_ in name:
            kind = alias
            break
    return '%s%s<%s>' % (kind, ndim if ndim.isdigit() else 'D', rust)


def _nd_inspect(v, parts, process, opts, res):
    """The inspection of an ndarray: shape, layout, edge items and the
    statistics of every element (sampled beyond array_sample)."""
    addr, et, shape, strides = parts
    fmt, dtype = _numeric(et)
    size = et.GetByteSize()
    n = _nd_count(shape)
    c, f = _nd_layout(shape, strides)
    res['detected_type'] = 'ndarray'
    res['structure'] = {'shape': shape, 'ndim': len(shape), 'dtype': dtype, 'size': n, 'nbytes': n * size,
                        'itemsize': size, 'element_type': et.GetName(), 'c_contiguous': c, 'f_contiguous': f}
    # the type as ndarray's aliases write it (the DWARF name spells out the
    # data representation and Dim<[usize; N]>)
    res['type'] = _nd_short(v.GetTypeName() or '', dtype)
    if n == 0:
        res['preview'] = {'values': []}
        return
    k = max(1, int(opts.get('max_preview_items', 10)) // 2) if len(shape) == 1 else 3
    # the edge items: from the elements read for the statistics when they
    # are all of them, else each read by itself
    limit = _LIMITS['array_sample']
    vals, sampled = None, True
    if n <= limit or not _nd_dense(shape, strides):
        vals, sampled = _nd_values(process, addr, fmt, size, shape, strides, limit)
    edges = _nd_edges(vals, shape, k) if not sampled else _nd_edge_reads(process, addr, fmt, size, shape, strides, k)
    cell = (lambda x: bool(x)) if dtype == 'bool' else ((lambda x: x if x == x and x not in (math.inf, -math.inf) else None) if dtype.startswith('float') else int)
    res['preview'] = {'values': _nd_map(edges, cell)}
    if any(d > 2 * k for d in shape):
        res['preview']['is_truncated'] = True
    if not opts.get('include_statistics', True):
        return
    if vals is None:  # a large dense array: one read, sampled evenly in memory order
        data, sampled = _elements(process, addr, fmt, size, n, limit)
    else:
        a = _array.array(fmt if fmt != '?' else 'B', vals)
        data = bytearray(a.tobytes())
    stats = res['statistics'] = {}
    _stats(data, fmt if fmt != '?' else 'B', dtype, stats)
    if sampled:
        m = len(data) // size
        stats['sampled'] = True
        stats['sample_size'] = m
        res['warnings'].append('statistics computed on %d evenly spaced of %d elements' % (m, n))


def _nd_edge_reads(process, addr, fmt, size, shape, strides, k):
    """Edge items of a large array, each element read by itself."""
    def one(index):
        off = sum(i * s for i, s in zip(index, strides))
        return _decode(fmt, _read(process, addr + off * size, size))[0]

    def at(prefix, axis):
        d = shape[axis]
        idx = list(range(d)) if d <= 2 * k else list(range(k)) + [None] + list(range(d - k, d))
        row = []
        for i in idx:
            if i is None:
                row.append(_ELL)
            elif axis == len(shape) - 1:
                row.append(one(prefix + [i]))
            else:
                row.append(at(prefix + [i], axis + 1))
        return row
    return at([], 0)


def _nd_map(x, cell):
    if isinstance(x, list):
        return [_nd_map(y, cell) for y in x]
    return x if x == _ELL else cell(x)


def _nd_summary(v, parts, process, out):
    """The one-line summary's fields of an ndarray (summary.py)."""
    addr, et, shape, strides = parts
    fmt, dtype = _numeric(et)
    size = et.GetByteSize()
    n = _nd_count(shape)
    out.update({'kind': 'ndarray', 'type': _nd_short(v.GetTypeName() or '', dtype), 'shape': shape, 'dtype': dtype,
                'len': n, 'memory': n * size})
    if not n or dtype == 'bool':
        return out
    limit = _LIMITS['array_sample']
    if _nd_dense(shape, strides):
        data, _sampled = _elements(process, addr, fmt, size, n, limit)
    else:
        vals, _sampled = _nd_values(process, addr, fmt, size, shape, strides, limit)
        data = bytearray(_array.array(fmt, vals).tobytes())
    st = {}
    _stats(data, fmt, dtype, st)
    out['nan'] = st.get('nan_count', 0)
    out['inf'] = st.get('inf_count', 0)
    if 'min' in st:
        out['min'], out['max'] = st['min'], st['max']
    return out


def _nd_columns(np, process, parts):
    """The data viewer's columns of a 1-D ndarray (`value`) or a 2-D one
    ("0", "1", … as the Python probe pages a 2-D numpy array), read from
    the span the array covers; None for other dimensions or a view spread
    too wide (select.py)."""
    addr, et, shape, strides = parts
    fmt, _dtype = _numeric(et)
    size = et.GetByteSize()
    n = _nd_count(shape)
    if len(shape) not in (1, 2) or n * size > 1 << 30:
        return None
    lo = sum((d - 1) * s for s, d in zip(strides, shape) if s < 0 and d)
    hi = sum((d - 1) * s for s, d in zip(strides, shape) if s > 0 and d)
    span = hi - lo + 1 if n else 0
    if span > _ND_SPREAD * max(n, 1):
        return None
    buf = np.frombuffer(_read(process, addr + lo * size, span * size), dtype=fmt if fmt != '?' else '?')
    a = np.lib.stride_tricks.as_strided(buf[-lo:] if n else buf, shape=tuple(shape), strides=tuple(s * size for s in strides), writeable=False)
    if len(shape) == 1:
        return {'value': np.ascontiguousarray(a)}, ['value']
    names = [str(j) for j in range(shape[1])]
    return dict((nm, np.ascontiguousarray(a[:, j])) for j, nm in enumerate(names)), names
