"""Differential check of two Python probes (issue 38): the facts of random
values must be the same in both. Run each probe source as the sidecar
sends it (go run ./internal/probesource FILE, once at the old commit, once
at the new one), in the Python of the leg under test:

    python3 testdata/python/probe_diff.py OLD.py NEW.py [frames] [seed]

Random DataFrames (a strided 2-D float or int block, NaN, ±inf, -0.0,
values below float32's smallest and above its largest, float32 rounding
collisions, exact duplicates, many repeats, Int64 and Float64 with NA,
categoricals, datetimes with NaT, booleans, strings; 0 to 120,000 rows;
some of up to 100,000 rows and 39 columns, which threads share),
Series, numpy arrays and lists are inspected by both probes, in short and
full precision, with a budget no run reaches. Every leaf of the two
answers (probe_ms aside) is a fact; the last line says how many differed."""
import json
import sys
import types
import warnings

import numpy as np
import pandas as pd

SIZES = [0, 1, 2, 3, 7, 100, 1000, 4096, 4097, 5000, 19999, 20000, 20001, 30000, 50000, 99999, 100000, 100001, 120000]
WEIGHTS = np.array([1, 1, 1, 1, 2, 4, 4, 1, 2, 2, 2, 2, 2, 4, 4, 2, 4, 2, 2], dtype=float)


def load(path, name):
    m = types.ModuleType(name)
    with open(path) as f:
        exec(compile(f.read(), path, 'exec'), m.__dict__)
    return m


def floats(r, n):
    """A float64 column of one of the shapes that take the probe's paths."""
    kind = r.integers(0, 12)
    if kind == 0:
        v = r.standard_normal(n)
    elif kind == 1:  # float32 rounding collisions: distinct float64s, one float32
        base = np.repeat(r.standard_normal(n // 4 + 1), 4)[:n]
        v = base + r.integers(-3, 4, n) * 1e-13 * np.abs(base)
    elif kind == 2:  # exact duplicates from a small pool
        v = r.choice(r.standard_normal(max(1, int(r.integers(1, 300)))), n)
    elif kind == 3:  # many repeated values (more than 4,096 repeated float32s)
        v = r.integers(0, max(1, n // 3), n) / 7.0
    elif kind == 4:  # zeros of both signs, in the middle or at an end
        v = r.standard_normal(n)
        v[r.random(n) < 0.05] = 0.0
        v[r.random(n) < 0.05] = -0.0
        if r.random() < 0.5:
            v = np.abs(v) * (1 if r.random() < 0.5 else -1)
    elif kind == 5:  # below float32's smallest (they round to ±0 there)
        v = r.standard_normal(n) * (1e-50 if r.random() < 0.5 else 1e-310)
        v[r.random(n) < 0.3] = r.standard_normal() * 3
    elif kind == 6:  # above float32's largest (they round to ±inf there)
        v = r.standard_normal(n) * 1e39
        v[r.random(n) < 0.5] *= 1e250
    elif kind == 7:  # integers as floats, a few distinct
        v = r.integers(-5, 6, n).astype(float)
    elif kind == 8:  # one value
        v = np.full(n, r.standard_normal())
    elif kind == 9:  # sorted, wide range
        v = np.sort(r.standard_normal(n) * 10.0 ** r.integers(-5, 6, n))
    elif kind == 10:  # float32 values widened
        v = r.standard_normal(n).astype(np.float32).astype(float)
    else:
        v = r.exponential(3.0, n).round(int(r.integers(0, 4)))
    if n and r.random() < 0.3:
        v[r.random(n) < r.choice([0.001, 0.05, 0.5])] = np.nan
    if n and r.random() < 0.15:
        v[r.integers(0, n, 3)] = r.choice([np.inf, -np.inf], 3)
    if n and r.random() < 0.03:
        v[:] = np.nan
    return v


def column(r, n):
    kind = r.integers(0, 14)
    if kind < 6:
        return floats(r, n)
    if kind == 6:
        return r.integers(-10 ** int(r.integers(1, 12)), 10 ** int(r.integers(1, 12)), n)
    if kind == 7:
        return pd.array(np.where(r.random(n) < 0.1, None, r.integers(0, 50, n)), dtype='Int64')
    if kind == 8:
        return pd.array(np.where(r.random(n) < 0.1, np.nan, floats(r, n)), dtype='Float64')
    if kind == 9:
        return pd.Categorical(r.choice(['a', 'b', 'c', None], n))
    if kind == 10:
        d = pd.Series(pd.Timestamp('2024-01-01') + pd.to_timedelta(r.integers(0, 10 ** 6, n), unit='s'))
        return d.where(r.random(n) > 0.1).to_numpy()
    if kind == 11:
        return r.random(n) < 0.3
    if kind == 12:
        return r.choice(['x', 'yy', 'zzz', ''], n).astype(object)
    return r.standard_normal(n).astype(np.float32)


def frame(r):
    if r.random() < 0.05:  # long and wide: a block pass shared among threads (order.py _pass_threads)
        n, k = int(r.choice([50000, 99999, 100000])), int(r.integers(11, 40))
        cols = [floats(r, n) if r.random() < 0.8 else r.integers(-100, 100, n) for _ in range(k)]
        if r.random() < 0.5:  # one strided block (floats only)
            return pd.DataFrame(np.stack([c.astype(float) for c in cols], axis=1), columns=['c%d' % i for i in range(k)])
        return pd.DataFrame({'c%d' % i: c for i, c in enumerate(cols)})
    n = int(r.choice(SIZES, p=WEIGHTS / WEIGHTS.sum()))
    if r.random() < 0.35:  # one 2-D block, each column strided
        k = int(r.integers(1, 8))
        if r.random() < 0.2:
            a = r.integers(-100, 100, (n, k))
        else:
            a = np.stack([floats(r, n) for _ in range(k)], axis=1) if n else np.zeros((0, k))
        df = pd.DataFrame(a, columns=['c%d' % i for i in range(k)])
        if r.random() < 0.3:
            df['s'] = column(r, n)
        return df
    k = int(r.integers(1, 6))
    names = ['id', 'key', 'x_id', 'v', 'w', 'amount']
    return pd.DataFrame({'%s%d' % (names[int(r.integers(0, len(names)))], i): column(r, n) for i in range(k)})


def leaves(x, path=''):
    if isinstance(x, dict):
        for k in sorted(x):
            yield from leaves(x[k], path + '.' + k)
    elif isinstance(x, list):
        for i, y in enumerate(x):
            yield from leaves(y, '%s[%d]' % (path, i))
        if not x:
            yield path, '[]'
    else:
        yield path, json.dumps(x)


def main():
    warnings.simplefilter('ignore')  # the probes' own RuntimeWarnings (inf - inf)
    old, new = load(sys.argv[1], 'old'), load(sys.argv[2], 'new')
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    r = np.random.default_rng(int(sys.argv[4]) if len(sys.argv) > 4 else 38)
    facts = differ = values = 0
    for i in range(count):
        df = frame(r)
        L = {'df': df}
        if df.shape[1]:
            L['s'] = df.iloc[:, int(r.integers(0, df.shape[1]))]
            col = L['s'].to_numpy()
            if col.dtype.kind in 'iuf':
                L['a'] = col
                if i % 10 == 0 and len(col) <= 20000:
                    L['l'] = col.tolist()
        variants = [(name, {'precision': p}) for name in L for p in ('short', 'full')]
        if df.shape[1] and i % 4 == 0:  # a frame's statistics narrowed, or left out
            variants += [('df', {'stats_of': {'columns': [str(df.columns[-1])]}}), ('df', {'include_statistics': False})]
            if df.shape[0] and df.dtypes.iloc[0].kind == 'f':
                variants.append(('df', {'stats_of': {'filter': '%s > 0' % df.columns[0]}}))
        for name, opts in variants:
            if True:
                precision = opts.get('precision', 'short')
                args = json.dumps({'path': [['name', name]], 'opts': dict(opts, timeout=600.0)})
                a, b = json.loads(old.run(L, {}, args)), json.loads(new.run(L, {}, args))
                a.pop('probe_ms', None)
                b.pop('probe_ms', None)
                la, lb = dict(leaves(a)), dict(leaves(b))
                values += 1
                facts += len(set(la) | set(lb))
                bad = sorted(k for k in set(la) | set(lb) if la.get(k) != lb.get(k))
                differ += len(bad)
                for k in bad[:5]:
                    print('value %d %s (%s, %s rows): %s: %s -> %s' % (i, name, precision, df.shape[0], k, la.get(k), lb.get(k)))
    print('numpy %s pandas %s: %d values, %d facts: differed in %d facts' % (np.__version__, pd.__version__, values, facts, differ))


if __name__ == '__main__':
    main()
