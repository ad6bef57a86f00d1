# dapscope Python probe: the layout of numbers, so their statistics
# (stats.py) make few passes: exact order statistics without a 64-bit sort
# where numpy's is slow, a frame's strided block copied dense once, and
# the temporaries of big columns in buffers reused from column to column.

# ---------------------------------------------------------------- order

# A fresh array past malloc's mmap threshold (128 KB) is new pages, each
# faulted in and zeroed on first touch: on a VM that is ~0.35 ms for the
# 800 KB of 100K float64s, more than the pass that fills them. The big
# temporaries of one call (float32 copies, sorted copies, deviations) go
# into buffers kept per thread for that call (_scratch), let go when it
# ends (_scratch_release, entry.py).
_SCRATCH = threading.local()
_SCRATCH_MIN = 16384  # elements; smaller arrays are cheaper fresh


def _scratch(np, name, n, dtype):
    """A 1-D buffer of n elements of dtype, reused for name within one
    probe call (its previous contents are garbage)."""
    bufs = getattr(_SCRATCH, 'bufs', None)
    if bufs is None:
        bufs = _SCRATCH.bufs = {}
    b = bufs.get(name)
    if b is None or b.shape[0] < n or b.dtype != dtype:
        b = bufs[name] = np.empty(n, dtype=dtype)
    return b[:n]


def _scratch_release():
    _SCRATCH.bufs = None


def _sorted_copy(np, v):
    """np.sort(v), a big one sorted in a reused buffer (the same sort)."""
    n = int(v.shape[0])
    if n < _SCRATCH_MIN:
        return np.sort(v)
    s = _scratch(np, 'sorted', n, v.dtype)
    s[...] = v
    s.sort()
    return s


def _sorted_or_order(np, fin):
    """fin (finite numbers) sorted, or where numpy sorts 64-bit floats
    slowly an _F32Order standing for them (the same values at every
    position, the same distinct count)."""
    if fin.dtype == np.float64 and fin.shape[0] >= _F32_ORDER_MIN and _numpy_below(np, (1, 25)):
        try:
            o = _F32Order(np, fin)
            if o.distinct is not None:
                return o
        except Exception:
            pass
    return _sorted_copy(np, fin)


def _numpy_below(np, version):
    try:
        return tuple(int(x) for x in np.__version__.split('.')[:2]) < version
    except Exception:
        return False


# numpy before 1.25 sorts 64-bit floats without SIMD (~7 ms for 100K on an
# AVX-512 machine: a 100K×50 frame's columns would take 350 ms) and 32-bit
# ones with it (~0.7 ms). Columns from this size on go by _F32Order there.
_F32_ORDER_MIN = 20000
_LOW_HALF = 0 if sys.byteorder == 'little' else 1  # the uint16 of a float32's low mantissa bits


class _F32Order(object):
    """The order statistics of a 1-D float64 array v of finite values
    (min and max not rounding to zero) from its float32 rounding sorted,
    v itself unsorted. Rounding keeps the order (x <= y gives f32(x) <= f32(y)), so
    the values that round to the float32 at sorted position k hold the
    positions start..start+len of all values: v[k] is the (k - start)-th
    of them, sorted. One pass over v32 finds those of the ends, of the
    quantiles' neighbours and of every repeated float32 at once; sorted,
    they are in float32 order too, so every position's value is one
    vectorised lookup. distinct: the float32 groups, each repeated one
    counted by its float64 values; None when too many repeat (then sort v
    itself). below(edges): how many values lie under each edge; zeros():
    how many are zero."""

    def __init__(self, np, v):
        self.np, self.v, self.shape = np, v, v.shape
        self.at = {}
        with np.errstate(over='ignore', under='ignore'):
            self._order(np, v)

    def _order(self, np, v):
        n = int(v.shape[0])
        self.v32 = _scratch(np, 'v32', n, np.float32)
        np.copyto(self.v32, v, casting='same_kind')
        self.s32 = s = _scratch(np, 's32', n, np.float32)
        s[...] = self.v32
        s.sort()
        if s[0] == 0 or s[-1] == 0:  # -0.0 or 0.0 as the min or max: the sort's choice
            self.distinct = None
            return
        # (array methods and same-dtype keys throughout: np.searchsorted(s,
        # 0) would cast all of s to float64 first)
        eq = s[1:] == s[:-1]
        n_eq = int(np.count_nonzero(eq))
        self.distinct = n - n_eq
        rep = _uniq_sorted(np, s[1:][eq]) if n_eq else s[:0]  # the float32 values that repeat
        if rep.shape[0] > 4096:
            self.distinct = None
            return
        ks = _order_positions(np, n)
        fs = s[ks]
        t = np.concatenate((rep, fs))
        t.sort()
        cand = self._rounding_to(_uniq_sorted(np, t))
        # the candidates' values sorted: in float32 order too, each float32's
        # values together (ties of equal floats only, which print alike but
        # for 0.0 and -0.0: a position of the zero float32 by _fill, as before)
        cv = v[cand]
        sv = np.sort(cv)
        sv32 = sv.astype(np.float32)
        if n_eq:
            j = np.minimum(rep.searchsorted(sv32), rep.shape[0] - 1)
            mv = sv[rep[j] == sv32]  # the values of the repeated float32s, sorted
            d = int(np.count_nonzero(mv[1:] != mv[:-1])) + 1 if mv.shape[0] else 0
            self.distinct += d - int(rep.shape[0])
        vals = sv[sv32.searchsorted(fs) + (ks - s.searchsorted(fs))]
        self.at = dict(zip(ks.tolist(), vals))
        if not fs.all():  # a quantile of the zero float32
            cv32 = self.v32[cand]
            for k, f in zip(ks.tolist(), fs.tolist()):
                if f == 0:
                    self._fill([k], np.float32(f), cv32, cv)

    def __getitem__(self, k):
        n = self.shape[0]
        k = int(k) + n if k < 0 else int(k)
        if k not in self.at:
            fs = self.s32[[k]]
            cand = self._rounding_to(fs)
            self._fill([k], fs[0], self.v32[cand], self.v[cand])
        return self.at[k]

    def _fill(self, ks, f, cv32, cv):
        """self.at[k] for each position k whose float32 is f, from the
        candidates cv (their float32s cv32), in their order in v."""
        np = self.np
        start = int(self.s32.searchsorted(np.float32(f)))
        group = np.sort(cv[cv32 == f])
        for k in ks:
            self.at[k] = group[k - start]

    def _rounding_to(self, f32s):
        """The positions of the values whose float32 is one of f32s
        (sorted, unique): a 64K-entry table of 16 of their bits (one
        uint16 half of each, read in place: the low one, which 0.0 and
        -0.0 share) picks candidates, an exact comparison keeps them."""
        np = self.np
        table = np.zeros(65536, dtype=bool)
        table[f32s.view(np.uint16)[_LOW_HALF::2]] = True
        idx = _scratch(np, 'idx', self.shape[0], np.intp)  # take's indices, cast once into a kept buffer
        np.copyto(idx, self.v32.view(np.uint16)[_LOW_HALF::2])
        cand = table.take(idx).nonzero()[0]
        c32 = self.v32[cand]
        j = np.minimum(f32s.searchsorted(c32), f32s.shape[0] - 1)
        return cand[f32s[j] == c32]

    def zeros(self):
        """How many values are zero: none unless a float32 is."""
        np, s32 = self.np, self.s32
        z = np.float32(0)
        if s32.searchsorted(z, 'right') == s32.searchsorted(z):
            return 0
        return int(np.count_nonzero(self.v == 0))

    def below(self, edges):
        """How many values are under each edge e: those whose float32 is
        under e's, and of those rounding alike (rarely any) the ones under
        e."""
        np, s32 = self.np, self.s32
        with np.errstate(over='ignore', under='ignore'):
            e32 = edges.astype(np.float32)
        lo = s32.searchsorted(e32).tolist()
        hi = s32.searchsorted(e32, 'right').tolist()
        out = []
        for e, f, a, b in zip(edges.tolist(), e32.tolist(), lo, hi):
            if b > a:
                a += int(np.count_nonzero(self.v[self.v32 == np.float32(f)] < e))
            out.append(a)
        return out


def _uniq_sorted(np, x):
    """The distinct values of a sorted 1-D array (np.unique's, without
    its sort)."""
    keep = np.empty(x.shape[0], dtype=bool)
    keep[:1] = True
    np.not_equal(x[1:], x[:-1], out=keep[1:])
    return x[keep]


_POSITIONS = {}


def _order_positions(np, n):
    """The sorted positions an order's statistics read: the ends and
    each quantile's two neighbours (_quantile_sorted)."""
    ks = _POSITIONS.get(n)
    if ks is None:
        got = set([0, n - 1])
        for p in (5, 25, 50, 75, 95):
            lo = int(math.floor(p / 100.0 * (n - 1)))
            got.update((lo, min(lo + 1, n - 1)))
        ks = np.array(sorted(got), dtype=np.intp)
        if len(_POSITIONS) < 64:
            _POSITIONS[n] = ks
    return ks


_GROUP_BYTES = 8 << 20  # a strided block's columns made dense at a time
_PARALLEL_CELLS = 1 << 20  # from this many cells the columns are shared out
_PARALLEL_MAX = 4  # threads, the calling one included


def _block_pass(np, df, series, B, stats_for):
    """A frame made from one 2-D array (pandas before 3 keeps it as it
    is) holds each column strided, every value on its own cache line, so
    each pass over a column reads the whole block. Up to _DUP_ROWS rows
    and 64 MB, such a block's columns are copied dense a group at a time
    (_GROUP_BYTES, one buffer per thread for all its groups: no fresh
    pages), and each column's null count and, where stats_for(i), its
    statistics are computed while it is in cache: the same values, one
    read of the block instead of one per pass. Numeric columns already
    dense likewise. From _PARALLEL_CELLS cells the groups and columns are
    shared out among threads (_pass_threads). Returns {i: (null count,
    statistics or None)} for the columns done (the rest go the usual way)."""
    out = {}
    n = int(df.shape[0])
    if n <= 4096 or n > _DUP_ROWS:
        return out
    jobs = []  # (values, their columns' indices in the frame, first row of a 2-D block)
    try:
        workers = _pass_threads(n * df.shape[1])
        in_blocks = set()
        for b in df._mgr.blocks:
            v = b.values
            if type(v) is not np.ndarray or v.ndim != 2 or v.dtype.kind not in 'iuf' or v.flags.c_contiguous \
                    or v.nbytes > 1 << 26:
                continue
            locs = b.mgr_locs.as_array.tolist()
            in_blocks.update(locs)
            g = max(1, min(len(locs), _GROUP_BYTES // (n * v.dtype.itemsize)))
            if workers > 1:  # groups small enough to keep every thread busy to the end
                g = max(1, min(g, -(-len(locs) // (4 * workers))))
            for j0 in range(0, len(locs), g):
                jobs.append((v, locs[j0:j0 + g], j0))
        # columns held dense already (pandas 3 gives each its own array):
        # the same, so each is read from memory once, not once for its
        # null count and again for its statistics
        for i, s in enumerate(series):
            v = s._values
            if i not in in_blocks and type(v) is np.ndarray and v.ndim == 1 and v.dtype.kind in 'iuf' \
                    and v.flags.c_contiguous:
                jobs.append((v, [i], 0))
    except Exception:
        return out
    if not jobs:
        return out
    todo = collections.deque(jobs)
    helpers = []
    # slices of a strided block copied at a time (_pass_jobs): in threads,
    # fewer and longer, for each copy's Python holds the GIL the others wait for
    step = 512
    if workers > 1 and len(jobs) > 1:
        step = 4096
        prec = (getattr(_PREC, 'full', False), getattr(_PREC, 'cell', _CELL))
        for _ in range(min(workers, len(jobs)) - 1):
            t = threading.Thread(target=_pass_helper, args=(np, todo, out, n, B, stats_for, step, prec), name='dapscope-probe')
            # pydevd neither traces nor lists nor suspends its own threads
            t.daemon = t.pydev_do_not_trace = t.is_pydev_daemon_thread = True
            try:
                t.start()
            except Exception:
                break
            helpers.append(t)
    _pass_jobs(np, todo, out, n, B, stats_for, step)
    for t in helpers:
        t.join(max(1.0, B.deadline - time.perf_counter() + 1.0))
    return dict(out)  # (a helper past its join writes into the old one)


def _pass_threads(cells):
    """How many threads share a block pass of cells values: one below
    _PARALLEL_CELLS, else one per CPU this process may use, at most
    _PARALLEL_MAX."""
    if cells < _PARALLEL_CELLS:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except Exception:
        cpus = os.cpu_count() or 1
    return max(1, min(_PARALLEL_MAX, cpus))


def _pass_helper(np, todo, out, n, B, stats_for, step, prec):
    """A helper thread of _block_pass: untraced, numpy quiet, the caller's
    precision, its own scratch buffers."""
    try:
        _raw_settrace()(None)
        _set_precision(*prec)
        with np.errstate(all='ignore'):
            _pass_jobs(np, todo, out, n, B, stats_for, step)
    except Exception:
        pass
    finally:
        _scratch_release()


def _pass_jobs(np, todo, out, n, B, stats_for, step):
    """Takes _block_pass's jobs from todo until none is left or the time
    runs out. numpy's copies, sums and sorts let go of the GIL, so the
    threads' columns are computed side by side."""
    bufs = {}
    while B.ok('null_counts'):
        try:
            v, locs, j0 = todo.popleft()
        except IndexError:
            return
        try:
            if v.ndim == 1:  # a column held dense
                out[locs[0]] = _dense_column(np, v, B, stats_for(locs[0]))
                continue
            rows = v[j0:j0 + len(locs)]
            buf = bufs.get(v.dtype.str)  # one per dtype for all groups (the first is the largest)
            if buf is None or buf.shape[0] < rows.shape[0]:
                buf = bufs[v.dtype.str] = np.empty((rows.shape[0], n), dtype=v.dtype)
            dense = buf[:rows.shape[0]]
            # in slices of step values: each reads one dense run of the
            # block and writes step values per column (with 512, a third
            # of one assignment's time, which strides through the block)
            for c in range(0, n, step):
                dense[:, c:c + step] = rows[:, c:c + step]
            for r, i in enumerate(locs):
                out[i] = _dense_column(np, dense[r], B, stats_for(i))
        except Exception:
            pass  # these columns go the usual way


def _dense_column(np, v, B, label):
    """The null count and (label: its budget label) the statistics of a
    numeric column of a numpy block from its values copied dense, v: what
    _null_count and _series_stats give for the column itself."""
    k, tot = 0, None
    if v.dtype.kind == 'f':
        tot = np.add.reduce(v, dtype='float64')
        if not math.isfinite(tot):
            k = int(np.count_nonzero(np.isnan(v)))
    if not label or B.left() <= 0.5 or not B.ok(label):  # short of time: null counts first
        return k, None
    st = {'count': int(v.shape[0])}
    try:
        _numeric_stats(np, v, st, distinct=True, B=B, repeated=True, total=tot)
    except Exception:
        return k, None  # the usual way says why
    return k, st
