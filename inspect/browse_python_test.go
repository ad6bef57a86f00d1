// browse_python_test.go: the probe's browsing parts run in a plain
// /usr/bin/python3 and checked against pandas: page cells written as JSON
// text (_page_json) are byte for byte what json.dumps writes for the
// probe's own cells (_cell), every column kind, both precisions;
// sorts by every kind of column (strings, categoricals, dates with NaT,
// tz-aware, booleans, nullable ints, string dtype, several keys) give
// pandas' stable order, on a view big enough for the first-rows partition.

package inspect

import (
	"os/exec"
	"strings"
	"testing"
)

const pageCellsCheck = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
cols = {
    'floats': np.array([0.0, -0.0, 5.0, 1.5, 0.1, 1/3, -2/3, 1e-7, 1.5e-5, 0.0001, 99999.49, 100000.5, 123456789.123, 1e300, -1e-300, np.nan, np.inf, -np.inf]),
    'float32': np.linspace(-1, 1, 7, dtype=np.float32),
    'ints': np.array([0, -1, 2**62, -2**63], dtype=np.int64),
    'uints': np.array([0, 2**64 - 1], dtype=np.uint64),
    'bools': np.array([True, False]),
    'objects': np.array(['plain', 'a "quoted" \\ back', 'é ☃ \n\t', None, 3, 2.5, float('nan'), {'k': [1, 2]}, b'bytes', 'x' * 5000], dtype=object),
    'dates': pd.date_range('2024-01-01', periods=3, freq='h', tz='Europe/Paris').array,
    'nullable': pd.array([1, None, 3], dtype='Int64'),
    'categorical': pd.Categorical(['x', None, 'y']),
}
bad = 0
for full in (False, True):
    m._set_precision(full, 6)
    for name, v in cols.items():
        want = [json.dumps(m._cell(x, 1, m._Trunc()), ensure_ascii=False, allow_nan=False, default=str) for x in v.tolist()]
        got = m._page_json(np, v, m._Trunc())
        for w, g in zip(want, got):
            if w != g:
                bad += 1
                print('precision full=%s column %s: %r, before %r' % (full, name, g, w))
        if len(want) != len(got):
            bad += 1
            print('column %s: %d cells, before %d' % (name, len(got), len(want)))
print('checked' if not bad else 'differs')
`

func runProbeCheck(t *testing.T, script string) {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Stdin = strings.NewReader(ProbeSource(Python))
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "checked" {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestPageCellsAsJSONText(t *testing.T) { runProbeCheck(t, pageCellsCheck) }

const sortKindsCheck = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(3)
N = m._PREFIX_MIN + 20000
city = np.array(['Nice', 'Lyon', 'Paris', None, 'Brest', 'Zé', 'a'], dtype=object)[rng.integers(0, 7, N)]
day = pd.Series(pd.to_datetime('2020-01-01') + pd.to_timedelta(rng.integers(0, 400, N), unit='D')).where(rng.random(N) > 0.05)
df = pd.DataFrame({'id': np.arange(N), 'city': city, 'cat': pd.Categorical(city, categories=['Zé', 'Nice', 'a', 'Lyon', 'Paris', 'Brest']),
                   'day': day, 'tz': day.dt.tz_localize('UTC').dt.tz_convert('Europe/Paris'), 'flag': rng.random(N) > 0.5,
                   'n': pd.Series(rng.integers(0, 50, N), dtype='Int64').where(rng.random(N) > 0.1),
                   's': pd.array(city, dtype='string'), 'qty': rng.integers(0, 9, N), 'x': rng.standard_normal(N)})
bad = 0
for cols in [['city'], ['cat'], ['day'], ['tz'], ['flag'], ['n'], ['s'], ['city', 'qty'], ['day', 'x'], ['cat', 'flag', 'id']]:
    for desc in (False, True):
        for off in (0, m._PREFIX - 100, m._PREFIX, N - 100):
            sel = {'rows': {'offset': off, 'limit': 100}, 'sort': [{'column': c, 'descending': desc} for c in cols]}
            got = json.loads(m.select({'df': df}, {}, json.dumps({'path': [['name', 'df']], 'selection': sel, 'gen': off, 'timeout': 10})))
            want = df.sort_values(cols, ascending=not desc, kind='stable', na_position='last').index[off:off + 100].tolist()
            if got.get('page', {}).get('positions') != want:
                bad += 1
                print(cols, 'descending' if desc else 'ascending', 'offset', off, str(got)[:300], 'pandas:', want[:8])
print('checked' if not bad else 'differs')
`

func TestBrowseSortKindsAgainstPandas(t *testing.T) { runProbeCheck(t, sortKindsCheck) }
