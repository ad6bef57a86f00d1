# dapscope Python probe: numpy arrays and scalars.

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
        flat, _ = _stride_sample(flat, _ARRAY_SAMPLE)
        stats['sampled'] = True
        stats['sample_size'] = int(flat.shape[0])
        res['warnings'].append('statistics computed on %d evenly spaced of %d elements' % (flat.shape[0], n))
    if kind == 'b':
        t = int(np.count_nonzero(flat))
        stats['count'] = int(flat.shape[0])
        stats['true_count'] = t
        stats['true_rate'] = _num(float(t) / max(1, flat.shape[0]), _STAT)
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
    elif kind in 'SUT':  # T: numpy 2's StringDType
        stats['count'] = int(flat.shape[0])


def _inspect_numpy_scalar(x, opts, B, res):
    res['structure'] = {'value': _cell(x, 0, _Trunc()), 'dtype': str(x.dtype)}
