# dapscope Python probe: other data libraries: xarray DataArrays and
# Datasets, (polars, pyarrow, DuckDB, Spark, Dask: engines.py and one file each; torch: torch.py).

# ---------------------------------------------------------------- other libraries

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
