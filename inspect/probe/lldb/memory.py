# dapscope lldb probe: contiguous elements read from memory in bulk (one
# SBProcess.ReadMemory of the span, sampled evenly beyond the array sample
# bound), decoded with the array module (numpy when lldb's Python has it),
# and their statistics: count, NaN/inf, min, max, mean, std (ddof=1),
# zeros, quantiles and a 10-bin histogram.

import array as _array


def _contiguous(v):
    """(address, element SBType, count) of a value whose elements lie one
    after the other in memory: a C array, std::vector/std::array, a Rust
    Vec, slice or array (raw ones too: rust_raw.py); None otherwise."""
    raw = _rust_raw_seq(v)
    if raw is not None:
        return raw
    t = v.GetType().GetCanonicalType()
    if t.IsArrayType():
        et = t.GetArrayElementType()
        size = et.GetByteSize()
        addr = v.GetLoadAddress()
        if size and addr not in (None, 0xffffffffffffffff):
            return addr, et, t.GetByteSize() // size
    n = v.GetNumChildren()
    if n == 0:
        return None
    c0 = v.GetChildAtIndex(0)
    size = c0.GetByteSize()
    a0 = c0.GetLoadAddress()
    if not size or a0 in (None, 0xffffffffffffffff):
        return None
    if n > 1:
        last = v.GetChildAtIndex(n - 1)
        if last.GetLoadAddress() != a0 + (n - 1) * size or v.GetChildAtIndex(1).GetLoadAddress() != a0 + size:
            return None
    return a0, c0.GetType(), n


def _mem_fd(process):
    """/proc/PID/mem of the program opened for reading, when lldb debugs it
    on this machine (the host platform, Linux) and the kernel lets the
    debugger read it; else None, and reads go through lldb."""
    import os, sys
    if not sys.platform.startswith('linux'):
        return None
    try:
        if process.GetTarget().GetPlatform().GetName() != 'host':
            return None
        return os.open('/proc/%d/mem' % process.GetProcessID(), os.O_RDONLY | getattr(os, 'O_CLOEXEC', 0))
    except Exception:
        return None


def _read(process, addr, nbytes):
    """The nbytes at addr, as a bytearray: one pread of /proc/PID/mem where
    it can (lldb's own read goes to lldb-server in packets of a few
    kilobytes: 8 MB is hundreds of round trips), else SBProcess.ReadMemory.
    Both read the stopped program's memory and run nothing in it."""
    import os
    if not nbytes:
        return bytearray()
    fd = _mem_fd(process)
    if fd is not None:
        buf = bytearray(nbytes)
        try:
            got = os.preadv(fd, [buf], addr)
        except (OSError, OverflowError, ValueError):
            got = -1
        finally:
            os.close(fd)
        if got == nbytes:
            return buf
    import lldb
    err = lldb.SBError()
    data = process.ReadMemory(addr, nbytes, err)
    if err.Fail() or data is None:
        raise MemoryError('cannot read %d bytes at 0x%x: %s' % (nbytes, addr, err.GetCString()))
    return bytearray(data)


# the largest span a sample is picked from in one read (numpy), in bytes
_WHOLE_READ = 256 << 20


def _elements(process, addr, fmt, size, n, limit):
    """The bytes of n elements at addr: all of them up to limit, else of
    limit evenly spaced ones (floor(j * n / limit)): one read of the span
    picked by numpy up to _WHOLE_READ bytes, else read in chunks; and
    whether they are a sample."""
    if n <= limit:
        return _read(process, addr, n * size), False
    np = _np()
    if np is not None and n * size <= _WHOLE_READ:
        # one read of all of them, the sample picked by numpy (the same
        # positions): a Python loop over a million positions costs ~0.3 s
        a = np.frombuffer(_read(process, addr, n * size), dtype=fmt if fmt != '?' else 'B')
        return bytearray(a[(np.arange(limit, dtype='int64') * n) // limit].tobytes()), True
    out = _array.array(fmt if fmt != '?' else 'B')
    pos = [(j * n) // limit for j in range(limit)]
    chunk = 1 << 16
    i = 0
    while i < limit:
        lo = pos[i]
        j = i
        while j + 1 < limit and pos[j + 1] - lo < chunk:
            j += 1
        hi = pos[j] + 1
        part = _decode(fmt, _read(process, addr + lo * size, (hi - lo) * size))
        for k in range(i, j + 1):
            out.append(part[pos[k] - lo])
        i = j + 1
    return bytearray(out.tobytes()), True


def _decode(fmt, data):
    a = _array.array(fmt if fmt != '?' else 'B')
    a.frombytes(data)
    return a


def _np():
    """numpy, when lldb's Python can import it; None otherwise. Debian's
    lldb embeds Debian's libpython: where another Python's home hides
    Debian's site packages, they are looked in too."""
    try:
        import numpy
        return numpy
    except Exception:
        pass
    import sys, os
    d = '/usr/lib/python3/dist-packages'
    if d in sys.path or not os.path.isdir(os.path.join(d, 'numpy')):
        return None
    sys.path.append(d)
    try:
        import numpy
        return numpy
    except Exception:
        sys.path.remove(d)
        return None


def _stats(data, fmt, dtype, stats):
    """Statistics of the numbers in data (bytes of elements of format
    fmt): numpy's on the bytes as they are when lldb's Python has it, else
    the array module's and Python's own."""
    np = _np()
    if np is not None and dtype != 'bool':
        return _stats_np(np, np.frombuffer(data, dtype=fmt), stats)
    vals = _decode(fmt, data)
    n = len(vals)
    stats['count'] = n
    if dtype == 'bool':
        t = n - vals.count(0)
        stats['true_count'] = t
        stats['true_rate'] = _num(float(t) / max(1, n), _LIMITS['stat_digits'])
        return
    is_float = dtype.startswith('float')
    fin = vals
    if is_float:
        s = math.fsum(vals) if n else 0.0
        if math.isnan(s) or math.isinf(s):
            nan = sum(1 for x in vals if x != x)
            inf = sum(1 for x in vals if x in (math.inf, -math.inf))
            if nan:
                stats['nan_count'] = nan
            if inf:
                stats['inf_count'] = inf
            fin = [x for x in vals if x == x and x not in (math.inf, -math.inf)]
    m = len(fin)
    if m == 0:
        return
    mn, mx = min(fin), max(fin)
    mean = math.fsum(fin) / m if is_float else float(sum(fin)) / m
    var = math.fsum((x - mean) * (x - mean) for x in fin) / (m - 1) if m > 1 else None
    _put(stats, is_float, mn, mx, mean, var, fin.count(0) if hasattr(fin, 'count') else 0)
    _shape(sorted(_sample(fin)), m, mn, mx, stats)


def _stats_np(np, a, stats):
    """numpy's statistics of a (a writable array over the bytes read, used
    up: the deviations are computed in place). Non-finite floats, when
    few, are overwritten with a finite element of a (min and max stay, the
    sums are corrected) instead of copying the finite ones out."""
    n = int(a.shape[0])
    stats['count'] = n
    is_float = a.dtype.kind == 'f'
    m, bad, fill = n, None, 0
    if is_float:
        ok = np.isfinite(a)
        m = int(np.count_nonzero(ok))
        if m != n:
            bad = np.flatnonzero(~ok)
            nan = int(np.count_nonzero(np.isnan(a[bad])))
            if nan:
                stats['nan_count'] = nan
            if n - m - nan:
                stats['inf_count'] = n - m - nan
    if m == 0:
        return
    k = _LIMITS['sample']
    pos = (np.arange(k, dtype='int64') * m) // k if m > k else None
    if bad is not None and (not a.flags.writeable or len(bad) > n // 8):
        a, bad = a[ok], None
    if bad is not None:
        if pos is not None:  # the sample's finite positions, in a
            pos = pos + np.searchsorted(bad - np.arange(len(bad)), pos, side='right')
        else:
            pos = np.flatnonzero(ok)
        fill = a[int(np.argmax(ok))]
        a[bad] = fill
    nb = 0 if bad is None else len(bad)
    s = a if pos is None else a[pos]
    s = np.sort(s).tolist()
    total = float(np.add.reduce(a, dtype='float64')) - nb * float(fill)
    mean = total / m
    mn, mx = a.min(), a.max()
    mn, mx = (float(mn), float(mx)) if is_float else (int(mn), int(mx))
    zeros = int(np.count_nonzero(a == 0)) - (nb if fill == 0 else 0)
    var = None
    if m > 1:
        if is_float and a.flags.writeable:
            d = np.subtract(a, mean, out=a)
        else:
            d = a.astype('float64') - mean
        var = (float(np.dot(d, d)) - nb * (float(fill) - mean) ** 2) / (m - 1)
    _put(stats, is_float, mn, mx, mean, var, zeros)
    _shape(s, m, mn, mx, stats)


def _put(stats, is_float, mn, mx, mean, var, zeros):
    d = _LIMITS['stat_digits']
    stats['min'] = _num(mn, d) if is_float else int(mn)
    stats['max'] = _num(mx, d) if is_float else int(mx)
    stats['mean'] = _num(mean, d)
    if var is not None:
        stats['std'] = _num(math.sqrt(max(var, 0.0)), d)
    if zeros:
        stats['zeros'] = int(zeros)


def _sample(fin):
    m = len(fin)
    k = _LIMITS['sample']
    if m <= k:
        return fin
    return [fin[(j * m) // k] for j in range(k)]


def _quantile(ss, p):
    pos = p / 100.0 * (len(ss) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(ss) - 1)
    return float(ss[lo]) + (float(ss[hi]) - float(ss[lo])) * (pos - lo)


def _shape(ss, total, mn, mx, stats):
    """Quantiles and the histogram from the sorted sample ss of total
    finite values (counts scaled to all of them when sampled)."""
    import bisect
    d = _LIMITS['stat_digits']
    m = len(ss)
    sampled = m < total
    if sampled:
        stats['sampled'] = True
        stats['sample_size'] = m
    stats['quantiles'] = dict(('p%d' % p, _num(_quantile(ss, p), d)) for p in (5, 25, 50, 75, 95))
    lo, hi = float(mn), float(mx)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    w = (hi - lo) / 10.0
    cuts = [0] + [bisect.bisect_left(ss, lo + w * i) for i in range(1, 10)] + [m]
    counts = [cuts[i + 1] - cuts[i] for i in range(10)]
    if sampled:
        counts = [int(math.floor(c * total / float(m) + 0.5)) for c in counts]
    stats['histogram'] = {'start': _num(lo, d), 'width': _num(w, d), 'counts': counts}
