package inspect

import (
	"encoding/json"
	"testing"
)

// blockStatsCheck holds the statistics of a frame made from one 2-D array
// (pandas before 3 keeps it strided: _block_pass makes it dense a group at
// a time) to pandas' own, column by column: 50,000 rows, so under numpy
// before 1.25 its float64 columns go by the float32 order (order.py), with
// float32 rounding collisions, exact duplicates, zeros of both signs, NaN,
// ±inf and values past float32's range. Twice: the 6 columns in one
// thread, then 24 (the same four times) shared among 3 threads
// (_pass_threads, forced: the machine may have one CPU), which must have
// done columns of their own.
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
bad = []
helped = []
helper = m._pass_helper
def counted(*a):
    helped.append(1)
    helper(*a)
m._pass_helper = counted
def close(a, b, what):
    if a is None or b is None or not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-300):
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
def same(a, b, what):
    if a != b:
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
def check(df):
  r = json.loads(m.run({'v': df}, {}, json.dumps({'path': [['name', 'v']], 'opts': {'precision': 'full', 'timeout': 60}})))
  same(len(r['statistics']['columns']), df.shape[1], 'columns with statistics')
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
df = pd.DataFrame(np.stack(cols, axis=1), columns=['c%d' % i for i in range(len(cols))])
assert not df['c0'].to_numpy().flags.c_contiguous or int(pd.__version__.split('.')[0]) >= 3
check(df)
if helped:
    bad.append('a 6-column frame was shared among threads')
m._pass_threads = lambda cells: 3
wide = pd.DataFrame(np.stack(cols * 4, axis=1), columns=['c%d' % i for i in range(4 * len(cols))])
check(wide)
if len(helped) != 2:
    bad.append('%d helper threads for 24 columns, want 2' % len(helped))
for b in bad:
    print(b)
print('checked' if not bad else 'differs')
`

func TestBlockStatsMatchPandas(t *testing.T) { runProbeCheck(t, blockStatsCheck) }

// extremeRangeCheck: values whose range overflows float64 (±1e308) and
// columns holding both infinities. The histogram keeps a finite width with
// the values in their bins (an "inf" width made the whole answer
// undecodable), and numpy prints no RuntimeWarning on the program's stderr
// (every warning is an error here). Each answer is printed for the Go side
// to decode.
const extremeRangeCheck = `
import json, sys, types, warnings
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
warnings.simplefilter('error')
np.seterr(all='warn')
wide = np.array([-1e308, 0.0, 1e308] * 10)
values = {'df': pd.DataFrame({'wide': wide, 'infs': np.array([np.inf, -np.inf, 1.0] * 10)}),
          'series': pd.Series(wide), 'arr': wide.copy(), 'lst': wide.tolist(),
          'big': np.random.default_rng(7).permutation(np.tile(wide, 10000))}  # past the sample bound: its middle bin estimated
bad = []
for name, v in values.items():
    out = m.run({'v': v}, {}, json.dumps({'path': [['name', 'v']], 'opts': {'precision': 'full', 'timeout': 60}}))
    print(out)
    r = json.loads(out)
    if 'error' in r:
        bad.append('%s: %s' % (name, r['error']))
        continue
    st = r['statistics']
    h = (st['columns'][0] if 'columns' in st else st)['histogram']
    n = len(wide) * (10000 if name == 'big' else 1)
    c = h['counts']
    if name == 'big':  # a sample's estimate: near a third in each
        c = [n // 3 if 0.3 * n < x < 0.37 * n else x for x in c]
    if h['width'] != 2e307 or h['start'] != -1e308 or c != [n // 3, 0, 0, 0, 0, n // 3, 0, 0, 0, n // 3]:
        bad.append('%s histogram %r' % (name, h))
print('checked' if not bad else 'differs: ' + '; '.join(bad))
`

func TestExtremeRangeStats(t *testing.T) {
	for _, l := range runProbeCheck(t, extremeRangeCheck) {
		var r Result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Errorf("the answer does not decode: %v\n%.300s", err, l)
		}
	}
}

// extremeRangeJSCheck: the JavaScript probe's histogram of the same
// values past float64's range: the same finite width and bins as the
// Python probe's (the fact both probes report).
const extremeRangeJSCheck = `
const P = (0, eval)(require('fs').readFileSync(0, 'utf8'));
const wide = [];
for (let i = 0; i < 10; i++) wide.push(-1e308, 0, 1e308);
const r = JSON.parse(P.run(() => wide, JSON.stringify({ path: [['name', 'wide']], opts: { precision: 'full' } })));
const h = r.statistics && r.statistics.histogram;
const want = JSON.stringify({ start: -1e308, width: 2e307, counts: [10, 0, 0, 0, 0, 10, 0, 0, 0, 10] });
console.log(h && JSON.stringify({ start: h.start, width: h.width, counts: h.counts }) === want ? 'checked' : 'histogram ' + JSON.stringify(r));
`

func TestExtremeRangeStatsJS(t *testing.T) { runJSProbeCheck(t, extremeRangeJSCheck) }
