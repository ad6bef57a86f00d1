package inspect

import "testing"

// blockStatsCheck holds the statistics of a frame made from one 2-D array
// (pandas before 3 keeps it strided: _block_pass makes it dense a group at
// a time) to pandas' own, column by column: 50,000 rows, so under numpy
// before 1.25 its float64 columns go by the float32 order (order.py), with
// float32 rounding collisions, exact duplicates, zeros of both signs, NaN,
// ±inf and values past float32's range.
const blockStatsCheck = `
import json, math, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(38)
N = 50000
base = np.repeat(rng.standard_normal(N // 4), 4)
cols = [
    rng.standard_normal(N),
    base + rng.integers(-3, 4, N) * 1e-13 * np.abs(base),   # one float32, several float64s
    rng.choice(rng.standard_normal(200), N),                  # exact duplicates
    np.where(rng.random(N) < 0.1, np.where(rng.random(N) < 0.5, 0.0, -0.0), rng.standard_normal(N)),
    np.where(rng.random(N) < 0.01, np.nan, rng.standard_normal(N) * 1e39),
    np.where(rng.random(N) < 0.001, np.inf, rng.exponential(2.0, N)),
]
df = pd.DataFrame(np.stack(cols, axis=1), columns=['c%d' % i for i in range(len(cols))])
assert not df['c0'].to_numpy().flags.c_contiguous or int(pd.__version__.split('.')[0]) >= 3
r = json.loads(m.run({'v': df}, {}, json.dumps({'path': [['name', 'v']], 'opts': {'precision': 'full', 'timeout': 60}})))
bad = []
def close(a, b, what):
    if a is None or b is None or not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-300):
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
def same(a, b, what):
    if a != b:
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
for c, info in zip(r['statistics']['columns'], r['structure']['columns']):
    s = df[c['name']]
    fin = s[np.isfinite(s)]
    same(info['null_count'], int(s.isna().sum()), c['name'] + ' null_count')
    same(c.get('nan_count', 0), int(s.isna().sum()), c['name'] + ' nan_count')
    same(c.get('inf_count', 0), int(np.isinf(s).sum()), c['name'] + ' inf_count')
    close(c['min'], fin.min(), c['name'] + ' min')
    close(c['max'], fin.max(), c['name'] + ' max')
    close(c['mean'], fin.mean(), c['name'] + ' mean')
    close(c['std'], fin.std(), c['name'] + ' std')
    for p in (5, 25, 50, 75, 95):
        close(c['quantiles']['p%d' % p], fin.quantile(p / 100.0), '%s p%d' % (c['name'], p))
    same(c['distinct'], int(s.nunique()), c['name'] + ' distinct')
    same(c.get('repeated', 0), int(s.dropna().duplicated().sum()), c['name'] + ' repeated')
    same(c.get('zeros', 0), int((s == 0).sum()), c['name'] + ' zeros')
    f = fin.to_numpy()
    same(c['histogram']['counts'], np.histogram(f, 10, (f.min(), f.max()))[0].tolist(), c['name'] + ' histogram')
for b in bad:
    print(b)
print('checked' if not bad else 'differs')
`

func TestBlockStatsMatchPandas(t *testing.T) { runProbeCheck(t, blockStatsCheck) }
