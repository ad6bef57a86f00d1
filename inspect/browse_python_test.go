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

// runProbeCheck runs a check script in the tables' Python (the probe's
// source on its stdin): it passes when its last line is "checked"; lines
// before it are logged (what an interpreter had, e.g. its devices).
func runProbeCheck(t *testing.T, script string) []string {
	t.Helper()
	cmd := exec.Command(python, "-c", script)
	cmd.Stdin = strings.NewReader(ProbeSource(Python))
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || lines[len(lines)-1] != "checked" {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(lines) > 1 {
		t.Logf("%s: %s", python, strings.Join(lines[:len(lines)-1], "\n"))
	}
	return lines[:len(lines)-1]
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

// filterKindsCheck: filters over every kind of column (numpy ints and
// floats with NaN, object strings with None, nullable Int64/Float64/
// boolean/string, categorical, tz-aware dates; pyarrow-backed columns when
// pyarrow is there) give pandas' own nullable answer: the same rows are
// true, and the rows pandas' Kleene logic leaves unknown are counted.
const filterKindsCheck = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(5)
N = 2000
def holes(a, p=0.1):
    return pd.Series(a).where(rng.random(N) > p)
df = pd.DataFrame({
    'i': rng.integers(-5, 20, N), 'f': holes(rng.normal(5, 3, N)), 'o': holes(rng.choice(['Nice', 'Lyon', 'Paris'], N)).astype(object),
    'n': holes(rng.integers(0, 9, N)).astype('Int64'), 'nf': holes(rng.normal(0, 1, N)).astype('Float64'),
    'b': holes(rng.random(N) > 0.5).astype('boolean'), 's': holes(rng.choice(['ab', 'bc', 'cd'], N)).astype('string'),
    'c': pd.Categorical(holes(rng.choice(['lo', 'mid', 'hi'], N))),
    't': pd.Series(pd.date_range('2024-01-01', periods=N, freq='h', tz='Europe/Paris')).where(rng.random(N) > 0.1),
    7: rng.integers(0, 4, N),
})
try:
    import pyarrow  # noqa: F401
    df['pa_i'] = df['n'].astype('int64[pyarrow]')
    df['pa_s'] = df['s'].astype('string[pyarrow]')
    arrow = True
except Exception:
    arrow = False
nl = df.copy()  # the oracle: every column nullable, so pandas' & | ~ are Kleene's
for k in ('i', 'f', 7):
    nl[k] = nl[k].astype('Float64' if k == 'f' else 'Int64')
nl['o'] = nl['o'].astype('string')
nl['c'] = nl['c'].astype('string')
def K(x):  # a string column's comparison as Kleene booleans (pandas 3 gives bool[pyarrow], which & | refuse beside NA)
    return x.astype('boolean')
cases = [
    ('i > 3 and f < 5', (nl.i > 3) & (nl.f < 5)),
    ('n >= 4 or nf < 0', (nl.n >= 4) | (nl.nf < 0)),
    ('not (o == "Nice")', ~K(nl.o == 'Nice')),
    ('b and s != "ab"', nl.b & K(nl.s != 'ab')),
    ('c == "lo" | (c == "hi")', K(nl.c == 'lo') | K(nl.c == 'hi')),
    ('t > "2024-02-01" and n < 5', (nl.t > pd.Timestamp('2024-02-01', tz='Europe/Paris')).astype('boolean').mask(nl.t.isna()) & (nl.n < 5)),
    ('o in ["Nice", "Lyon"]', nl.o.isin(['Nice', 'Lyon']).astype('boolean').mask(nl.o.isna())),
    ('s.str.contains("b") & ~b', K(nl.s.str.contains('b', regex=False)) & ~nl.b),
    ('n * 2 + i > 10', nl.n * 2 + nl.i > 10),
    ('f.isna() | (i % 2 == 0)', nl.f.isna() | (nl.i % 2 == 0)),
    ('` + "`7`" + ` == 3 and nf.notna()', (nl[7] == 3) & nl.nf.notna()),
    ('duplicated(subset=["o", "c"]) and i > 3', df.duplicated(subset=['o', 'c']).astype('boolean') & (nl.i > 3)),
    ('i.duplicated(keep=False) & (f > 5)', df.i.duplicated(keep=False).astype('boolean') & (nl.f > 5)),
    ('duplicated(keep="last")', df.duplicated(keep='last').astype('boolean')),
    ('not c.duplicated()', ~df.c.duplicated().astype('boolean')),
    ('o.str.match("N")', K(nl.o.str.match('N'))),
    ('s.str.match("B", case=False)', K(nl.s.str.match('B', case=False))),
    ('s.str.contains("^[ab]c?$", regex=True)', K(nl.s.str.contains('^[ab]c?$', regex=True))),
]
if arrow:
    cases += [('pa_i > 4 and pa_s == "bc"', (nl.n > 4) & K(nl.s == 'bc')), ('pa_s.str.startswith("c") | (pa_i == 0)', K(nl.s.str.startswith('c')) | (nl.n == 0))]
bad = 0
for flt, want in cases:
    r = json.loads(m.select({'df': df}, {}, json.dumps({'path': [['name', 'df']], 'selection': {'filter': flt, 'rows': {'limit': 1000}}, 'gen': 1, 'timeout': 10})))
    pos = np.flatnonzero(want.fillna(False).to_numpy(bool))
    if 'error' in r or r['page']['positions'] != pos[:1000].tolist() or r['page']['total_rows'] != len(pos) or r['page'].get('filter_na_rows', 0) != int(want.isna().sum()):
        bad += 1
        print(flt, str(r)[:300], 'pandas:', len(pos), 'true,', int(want.isna().sum()), 'unknown')
print('checked' if not bad else 'differs')
`

func TestBrowseFilterKindsAgainstPandas(t *testing.T) { runProbeCheck(t, filterKindsCheck) }

// hostileRegexCheck: (x+)+y over 'x' * 28 + '!' (minutes of backtracking
// in Python's re) never blocks the program: it runs in RE2 (pyarrow) or
// is refused; a backreference likewise. The alarm is a hang guard, not a
// timing: it only fires if the probe ran the pattern in re.
const hostileRegexCheck = `
import json, signal, sys, types
import pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
def hung(*_):
    print('blocked: the pattern ran in Python re'); sys.exit(1)
signal.signal(signal.SIGALRM, hung)
signal.alarm(120)
df = pd.DataFrame({'s': ['x' * 28 + '!'] * 50 + ['xxy']})
bad = 0
for flt, want in (('s.str.contains("(x+)+y", regex=True)', [50]), ('s.str.match("(x+)+y")', [50]),
                  ('s.str.contains("(x|xx)*(x+)+y", regex=True)', [50]), (r's.str.contains("(x)\\1", regex=True)', None)):
    r = json.loads(m.select({'df': df}, {}, json.dumps({'path': [['name', 'df']], 'selection': {'filter': flt, 'rows': {'limit': 100}}, 'gen': 1, 'timeout': 10})))
    err = r.get('error')
    if err is not None and err['code'] != 'INVALID_EXPRESSION' or err is None and r['page']['positions'] != want:
        bad += 1
    print(flt, '->', err['message'][:160] if err else r['page']['positions'])
signal.alarm(0)
print('checked' if not bad else 'differs')
`

func TestBrowseFilterRegexNeverBlocks(t *testing.T) { runProbeCheck(t, hostileRegexCheck) }
