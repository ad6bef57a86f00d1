# dapscope Python probe: torch tensors on any device. Statistics are the
# tensor's own reductions, computed where it lives (CPU, CUDA, MPS: the same
# code), and only scalars and a small preview slice cross to the host, in
# ONE transfer (_DevBatch: one synchronisation). What the numpy path gives
# an array, this gives a tensor, to the same rules (stats.py): exact counts,
# min, max, mean, std over at most _EXACT_LIMIT elements (above: an evenly
# spaced sample of _ARRAY_SAMPLE), quantiles, histogram and distinct from
# one sorted evenly spaced sample of at most _SAMPLE finite values. bf16,
# fp16 and fp8 are read through an exact wider view on the device; sparse,
# quantized and meta tensors are labelled and never densified. Device-only
# lines are marked GPU-ONLY (untested without a GPU).

import struct


class _DevBatch(object):
    """Values computed on a device, brought to the host in one transfer:
    floats travel as the bits of the working float dtype, integers as
    int64, all in one int64 tensor (exact both ways)."""

    def __init__(self, torch, device):
        self.torch, self.parts, self.n, self.vals = torch, [], 0, []
        mps = str(device).startswith('mps')  # GPU-ONLY: MPS has no float64
        self.fdt = torch.float32 if mps else torch.float64
        self.bits = (torch.int32, '<i', '<f') if mps else (torch.int64, '<q', '<d')

    def add(self, t, kind):
        """Queues t (any shape; kind 'f' float, 'i' integer); returns its slot."""
        t = t.reshape(-1)
        t = t.to(self.fdt).view(self.bits[0]).to(self.torch.int64) if kind == 'f' else t.to(self.torch.int64)
        slot = (self.n, int(t.numel()), kind)
        self.parts.append(t)
        self.n += slot[1]
        return slot

    def fetch(self):
        if self.parts:
            self.vals = self.torch.cat(self.parts).tolist()  # the one synchronisation

    def get(self, slot):
        a, n, kind = slot
        v = self.vals[a:a + n]
        if kind == 'f':
            ib, fb = self.bits[1], self.bits[2]
            v = [struct.unpack(fb, struct.pack(ib, x))[0] for x in v]
        return v


def _tensor_flat(torch, x, n, positions=None):
    """x flattened (a view when contiguous), or its elements at the given
    flat positions (a device tensor) without copying the rest. In memory
    order when x is a transpose of a contiguous tensor (as numpy.py reads
    an F-contiguous array), else in index order."""
    if not x.is_contiguous() and x.dim() > 1:
        rev = x.permute(*reversed(range(x.dim())))
        if rev.is_contiguous():
            x = rev
    if positions is None:
        return x.reshape(-1)
    if x.is_contiguous():
        return x.reshape(-1)[positions]
    idx, rem = [], positions
    for size in reversed(list(x.shape)):
        idx.append(rem % size)
        rem = rem // size
    return x[tuple(reversed(idx))]


def _tensor_edges_index(torch, x, k):
    """The preview slice: the first and last k indices of every axis."""
    sub = x
    for d, size in enumerate(x.shape):
        if size > 2 * k:
            i = torch.cat((torch.arange(k), torch.arange(size - k, size))).to(x.device)
            sub = sub.index_select(d, i)
    return sub


def _nested_edges(v, shape, k, tr):
    """Cells of a preview slice (nested lists) with … where an axis was cut."""
    if not shape:
        return _cell(v, 1, tr)
    out = [_nested_edges(x, shape[1:], k, tr) for x in v]
    if shape[0] > 2 * k:
        tr.hit = True
        out = out[:k] + [_ELL] + out[k:]
    return out


def _tensor_numbers(torch, b, f, sampled_from, stats):
    """Queues the numeric statistics of the 1-D tensor f (working dtype or
    int64) on b; returns a function that fills stats after b.fetch()."""
    dev, n, fl = f.device, int(f.numel()), f.is_floating_point()
    wd = b.fdt
    fin_mask = torch.isfinite(f) if fl else None
    fin_n = fin_mask.sum() if fl else torch.tensor(n, device=dev)
    nan_n = torch.isnan(f).sum() if fl else torch.tensor(0, device=dev)
    big = torch.tensor(float('inf'), dtype=wd, device=dev)
    x = f.to(wd)
    xf = torch.where(fin_mask, x, torch.zeros((), dtype=wd, device=dev)) if fl else x
    lo_src = torch.where(fin_mask, x, big) if fl else x
    hi_src = torch.where(fin_mask, x, -big) if fl else x
    mn, mx = (lo_src.min(), hi_src.max()) if fl else (f.min(), f.max())
    cnt = fin_n.clamp(min=1).to(wd)
    mean = xf.sum() / cnt
    dev2 = torch.where(fin_mask, (x - mean) ** 2, torch.zeros((), dtype=wd, device=dev)) if fl else (x - mean) ** 2
    std = (dev2.sum() / (cnt - 1).clamp(min=1)).sqrt()  # ddof=1, as pandas and torch.std
    zeros = ((x == 0) & fin_mask).sum() if fl else (f == 0).sum()
    # the sample: _SAMPLE evenly spaced finite values (all when fewer),
    # as stats.py takes them; rank r of the finite values is found through
    # the running count of finite values (no host round trip for its size)
    S = min(_SAMPLE, n)
    j = torch.arange(S, device=dev)
    m = torch.minimum(fin_n, torch.tensor(S, device=dev))
    if fl:
        r = torch.where(fin_n > S, (j * fin_n) // S, j)
        pos = torch.searchsorted(torch.cumsum(fin_mask.to(torch.int64), 0), r + 1).clamp(max=n - 1)
        sample = torch.where(j < m, x[pos], big)
    else:
        sample = x[(j * n) // S] if n > S else x
    ss = torch.sort(sample).values  # finite values first, then the +inf fill
    mf = m.to(wd)
    qpos = torch.tensor([0.05, 0.25, 0.5, 0.75, 0.95], dtype=wd, device=dev) * (mf - 1).clamp(min=0)
    qlo = qpos.floor().to(torch.int64)
    qhi = torch.minimum(qlo + 1, (m - 1).clamp(min=0))
    quant = ss[qlo] + (ss[qhi] - ss[qlo]) * (qpos - qlo.to(wd))
    lo, hi = mn.to(wd), mx.to(wd)
    same = lo == hi
    lo, hi = torch.where(same, lo - 0.5, lo), torch.where(same, hi + 0.5, hi)
    # numpy's edges (lo + i * step). The step is divided by a tensor: CUDA
    # divides by a Python number as a multiply by its reciprocal, which
    # moves an edge such as 5 * 25.4 past 127.
    edges = lo + torch.arange(1, 10, device=dev).to(wd) * ((hi - lo) / torch.tensor(10.0, dtype=wd, device=dev))
    # Compared in the float dtype, as numpy compares an integer sample with
    # float edges (an edge cast to the sample's integer dtype would be
    # truncated: 101.6 to 101, moving the 101s up a bin).
    cuts = torch.searchsorted(ss if ss.dtype == wd else ss.to(wd), edges)
    idx = torch.arange(S, device=dev)
    inside = idx < m
    change = torch.zeros(S, dtype=torch.bool, device=dev)
    if S > 1:
        change[1:] = ss[1:] != ss[:-1]
    starts = (change | (idx == 0)) & inside
    ends = torch.ones(S, dtype=torch.bool, device=dev)
    if S > 1:
        ends[:-1] = change[1:] | ~inside[1:]
    single = (starts & ends & inside).sum()
    # exact tails (clues.py _histogram): the extreme bins counted over all
    # finite values, used when the sample missed the min or the max
    fx = x if fl else x.to(wd)
    tails = [((fx < edges[0]) & fin_mask).sum() if fl else (fx < edges[0]).sum(),
             ((fx >= edges[8]) & fin_mask).sum() if fl else (fx >= edges[8]).sum(),
             ((ss[0] > mn.to(wd)) | (ss[(m - 1).clamp(min=0)] < mx.to(wd))).to(torch.int64)]
    d = starts.sum()
    infs = [(f == float('inf')).any(), (f == float('-inf')).any()] if fl else [torch.tensor(False, device=dev)] * 2
    ints = b.add(torch.stack([fin_n, nan_n, zeros, m, d, single, infs[0].to(torch.int64), infs[1].to(torch.int64),
                              (fin_n > S).to(torch.int64)] + tails + [c.to(torch.int64) for c in cuts]), 'i')
    exact = b.add(torch.stack([mn.to(torch.int64), mx.to(torch.int64)]), 'i') if not fl else None
    flts = b.add(torch.stack([mn.to(wd), mx.to(wd), mean, std, lo, hi] + list(quant)), 'f')

    def fill():
        fin, nan, zer, mm, dd, f1, pinf, ninf, sampled, tlo, thi, missed = b.get(ints)[:12]
        cut = b.get(ints)[12:]
        fv = b.get(flts)
        stats['count'] = n
        _count(stats, 'nan_count', nan)
        _count(stats, 'inf_count', n - fin - nan)
        if fin == 0:
            return
        if fl:
            stats['min'], stats['max'] = _num(fv[0], _STAT), _num(fv[1], _STAT)
        else:
            stats['min'], stats['max'] = b.get(exact)
        stats['mean'] = _num(fv[2], _STAT)
        if fin >= 2:
            stats['std'], stats['ddof'] = _num(fv[3], _STAT), 1
        _count(stats, 'zeros', zer)
        if sampled and not stats.get('sampled'):
            stats['sampled'] = True
            stats['sample_size'] = mm
        stats['quantiles'] = dict(('p%d' % p, _num(q, _STAT)) for p, q in zip((5, 25, 50, 75, 95), fv[6:11]))
        bounds = [0] + cut + [mm]
        counts = [bounds[i + 1] - bounds[i] for i in range(10)]
        if sampled:
            counts = [int(math.floor(c * fin / mm + 0.5)) for c in counts]
        stats['histogram'] = {'start': _num(fv[4], _STAT), 'width': _num(fv[5] / 10.0 - fv[4] / 10.0 if abs(fv[5] - fv[4]) == float('inf') else (fv[5] - fv[4]) / 10.0, _STAT), 'counts': counts}
        if sampled and missed:
            counts[0], counts[9] = tlo, thi
            stats['histogram']['tails_exact'] = True
        if not sampled:
            stats['distinct'] = dd
        else:
            est = float(dd) / mm * fin if dd > 0.9 * mm else math.sqrt(float(fin) / mm) * f1 + (dd - f1)
            stats['distinct'] = int(min(fin, max(dd, round(est))))
            stats['distinct_estimated'] = True
        if 'distinct' in stats and n - fin - nan:
            stats['distinct'] += pinf + ninf  # infinities are values too (stats.py)
        if sampled_from:
            stats['distinct_estimated'] = True
    return fill


def _tensor_data(torch, t, st, opts, B, res):
    """Preview and statistics of a dense tensor with data, on its device."""
    x = t.detach()
    for fix in ('resolve_conj', 'resolve_neg'):  # lazy conjugate/negative views
        f = getattr(x, fix, None)
        if f is not None:
            x = f()
    n, dev = int(x.numel()), x.device
    b = _DevBatch(torch, dev)
    items = int(opts.get('max_preview_items', 10))
    k = max(1, items // 2) if x.dim() <= 1 else (3 if x.dim() <= 2 else (2 if x.dim() <= 4 else 1))
    kind = 'c' if x.is_complex() else 'f' if x.is_floating_point() else 'b' if x.dtype == torch.bool else 'i'
    sub = _tensor_edges_index(torch, x, k)
    pv = b.add(torch.view_as_real(sub) if kind == 'c' else sub, 'f' if kind in 'fc' else 'i')
    fill = None
    stats = {}
    if opts.get('include_statistics', True) and n and B.ok('statistics'):
        sampled = n > _EXACT_LIMIT and not opts.get('force_statistics')
        flat = _tensor_flat(torch, x, n, (torch.arange(_ARRAY_SAMPLE, device=dev) * n) // _ARRAY_SAMPLE if sampled else None)
        if sampled:
            stats['sampled'] = True
            stats['sample_size'] = _ARRAY_SAMPLE
            res['warnings'].append('statistics computed on %d evenly spaced of %d elements' % (_ARRAY_SAMPLE, n))
        if kind == 'b':
            slot = b.add(flat.sum(), 'i')
            m = int(flat.numel())

            def fill():
                t1 = b.get(slot)[0]
                stats.update(count=m, true_count=t1, true_rate=_num(float(t1) / max(1, m), _STAT))
        elif kind == 'c':
            slot = b.add(torch.stack([torch.isnan(flat).sum().to(torch.float64)]), 'f')
            ms = b.add(torch.view_as_real(flat.mean().reshape(1)), 'f')
            m = int(flat.numel())

            def fill():
                stats['count'] = m
                _count(stats, 'nan_count', b.get(slot)[0])
                re_, im = b.get(ms)
                stats['mean'] = repr(complex(re_, im))
        else:  # bf16, fp16, fp8, fp32: an exact wider copy of the (sampled) values
            fill = _tensor_numbers(torch, b, flat.to(b.fdt) if kind == 'f' else flat, sampled, stats)
    b.fetch()
    tr = _Trunc()
    v = b.get(pv)
    if kind == 'c':
        v = [complex(v[i], v[i + 1]) for i in range(0, len(v), 2)]
    elif kind == 'b':
        v = [bool(x) for x in v]
    shape = [int(s) for s in sub.shape]
    for size in reversed(shape[1:]):  # rebuild the nested lists
        v = [v[i:i + size] for i in range(0, len(v), size)]
    res['preview'] = {'values': _nested_edges(v if shape else v[0], [int(s) for s in x.shape], k, tr)}
    if tr.hit:
        res['preview']['is_truncated'] = True
    if fill is not None:
        fill()
        res['statistics'] = stats


def _inspect_tensor(t, opts, B, res):
    torch = _mod('torch')
    st = res['structure'] = {}
    try:
        st['shape'] = [int(x) for x in t.shape]
        st['ndim'] = int(t.dim())
        st['dtype'] = str(t.dtype)
        st['device'] = str(t.device)
        st['requires_grad'] = bool(t.requires_grad)
        st['size'] = int(t.numel())
        st['itemsize'] = int(t.element_size())
    except Exception:
        pass
    _tensor_grad(t, st)
    layout = str(getattr(t, 'layout', 'torch.strided')).replace('torch.', '')
    device = st.get('device', '')
    if layout != 'strided':
        st['layout'] = layout
        try:
            st['nnz'] = int(t._nnz())  # stored elements, read from the index (never densified)
        except Exception:
            pass
        res['warnings'].append('%s layout: no statistics or preview (never densified)' % layout)
        return
    try:
        st['nbytes'] = int(t.numel() * t.element_size())
        st['c_contiguous'] = bool(t.is_contiguous())
        _tensor_memory(torch, t, st)
    except Exception:
        pass
    if getattr(t, 'is_quantized', False):
        try:
            st['qscheme'] = str(t.qscheme()).replace('torch.', '')
        except Exception:
            pass
        res['warnings'].append('quantized tensor: no statistics or preview (its integer representation is not read)')
        return
    if device == 'meta' or getattr(t, 'is_meta', False):
        res['warnings'].append('tensor is on the meta device: it has no data (shape and dtype only)')
        return
    try:
        _tensor_data(torch, t, st, opts, B, res)
    except Exception as e:
        res['warnings'].append('tensor statistics failed on %s: %s: %s' % (device, _short(type(e)), _cut(str(e), 200, _Trunc())))


def _tensor_grad(t, st):
    """grad_fn (a tensor computed by autograd) and whether .grad is set
    (read on leaves only: torch warns when a non-leaf's .grad is read)."""
    try:
        fn = t.grad_fn
        if fn is not None:
            st['grad_fn'] = _short(type(fn))
        if t.is_leaf and t.requires_grad:
            st['has_grad'] = t.grad is not None
    except Exception:
        pass


def _tensor_memory(torch, t, st):
    """The storage behind a view when bigger than its elements, and the
    device's allocated and reserved memory (CUDA, MPS)."""
    try:
        us = getattr(t, 'untyped_storage', None)
        nb = int(us().nbytes()) if us is not None else int(t.storage().nbytes())
        if nb != st['nbytes']:
            st['storage_bytes'] = nb
    except Exception:
        pass
    dev = t.device
    try:
        if dev.type == 'cuda':  # GPU-ONLY
            st['device_memory'] = {'allocated': int(torch.cuda.memory_allocated(dev)), 'reserved': int(torch.cuda.memory_reserved(dev))}
        elif dev.type == 'mps':  # GPU-ONLY (macOS)
            st['device_memory'] = {'allocated': int(torch.mps.current_allocated_memory()), 'reserved': int(torch.mps.driver_allocated_memory())}
    except Exception:
        pass


def _tensor_sum(t, out):
    """A one-line summary's facts of a tensor: memory, autograd, and for a
    dense one with data (at most _SUM_STATS_LIMIT elements) NaN/inf counts
    and min/max, computed on its device, one transfer."""
    torch = _mod('torch')
    out['shape'] = [int(x) for x in t.shape]
    out['dtype'] = str(t.dtype).replace('torch.', '')
    out['device'] = str(t.device)
    if t.requires_grad:
        out['requires_grad'] = True
    if t.grad_fn is not None:
        out['grad_fn'] = _short(type(t.grad_fn))
    layout = str(t.layout).replace('torch.', '')
    if layout != 'strided':
        out['layout'] = layout
        return
    n = int(t.numel())
    if t.device.type != 'meta':  # a meta tensor holds no memory
        out['memory'] = n * int(t.element_size())
    if (not n or n > _SUM_STATS_LIMIT or t.device.type == 'meta' or getattr(t, 'is_quantized', False)
            or t.is_complex() or t.dtype == torch.bool):
        return
    with torch.no_grad():
        x = t.detach().reshape(-1)
        b = _DevBatch(torch, t.device)
        if t.is_floating_point():
            x = x.to(b.fdt)
            fin = torch.isfinite(x)
            big = torch.tensor(float('inf'), dtype=b.fdt, device=x.device)
            ints = b.add(torch.stack([torch.isnan(x).sum(), torch.isinf(x).sum(), fin.sum()]), 'i')
            fl = b.add(torch.stack([torch.where(fin, x, big).min(), torch.where(fin, x, -big).max()]), 'f')
            b.fetch()
            nan, inf, k = b.get(ints)
            if nan:
                out['nan'] = nan
            if inf:
                out['inf'] = inf
            if k:
                lo, hi = b.get(fl)
                out['min'], out['max'] = _num(lo), _num(hi)
        else:
            slot = b.add(torch.stack([x.min().to(torch.int64), x.max().to(torch.int64)]), 'i')
            b.fetch()
            out['min'], out['max'] = b.get(slot)
