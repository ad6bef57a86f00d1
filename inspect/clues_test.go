// clues_test.go: issue #35's clues held to pandas in the same interpreter
// (both legs): every statistic of every dtype to pandas' own describe(),
// repeated values and duplicate rows to duplicated(), keys with duplicates
// named (by name, by an index that claims them unique, by distinct ratio),
// histograms that keep their tails; and the problem lines the text
// formats show.

package inspect

import (
	"strings"
	"testing"
)

const statsVsPandasCheck = `
import json, math, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(11)
N = 3000
f = rng.standard_normal(N) * 7 + 3
f[::13] = np.nan
df = pd.DataFrame({
    'ints': rng.integers(-50, 1000, N),
    'floats': f,
    'flags': rng.random(N) > 0.3,
    'when': pd.Series(pd.to_datetime('2021-01-01') + pd.to_timedelta(rng.integers(0, 10**6, N), unit='s')).where(rng.random(N) > 0.05),
    'took': pd.Series(pd.to_timedelta(rng.integers(0, 10**5, N), unit='s')).where(rng.random(N) > 0.05),
    'cat': pd.Categorical(rng.choice(['a', 'b', 'c', 'd'], N, p=[0.4, 0.3, 0.2, 0.1])),
    'text': pd.Series(np.array(['x%d' % i for i in range(40)], dtype=object)[np.minimum(rng.geometric(0.15, N), 39)]).where(rng.random(N) > 0.02),
    'nint': pd.Series(rng.integers(0, 30, N), dtype='Int64').where(rng.random(N) > 0.1),
    'order_id': np.concatenate([np.arange(N - 60), np.arange(60)]),
})
bad = []
def res_of(obj, opts=None):
    return json.loads(m.run({'v': obj}, {}, json.dumps({'path': [['name', 'v']], 'opts': dict({'precision': 'full', 'timeout': 30}, **(opts or {}))})))
r = res_of(df)
cols = {c['name']: c for c in r['statistics']['columns']}
def close(a, b, what):
    if a is None or b is None or not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12):
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
def same(a, b, what):
    if a != b:
        bad.append('%s: probe %r, pandas %r' % (what, a, b))
for name in ('ints', 'floats', 'nint'):
    d, c = df[name].describe(), cols[name]
    close(c['mean'], d['mean'], name + ' mean')
    close(c['std'], d['std'], name + ' std')
    same(c.get('ddof'), 1, name + ' ddof')
    close(c['min'], d['min'], name + ' min')
    close(c['max'], d['max'], name + ' max')
    for p, k in (('p25', '25%'), ('p50', '50%'), ('p75', '75%')):
        close(c['quantiles'][p], d[k], name + ' ' + p)
    close(c['quantiles']['p5'], df[name].quantile(0.05), name + ' p5')
    close(c['quantiles']['p95'], df[name].quantile(0.95), name + ' p95')
    same(c['distinct'], int(df[name].nunique()), name + ' distinct')
    same(c.get('repeated', 0), int(df[name].dropna().duplicated().sum()), name + ' repeated')
    nn = df[name].dropna().to_numpy(dtype='float64')
    h = c['histogram']
    same(h['counts'], np.histogram(nn, 10, (nn.min(), nn.max()))[0].tolist(), name + ' histogram')
for name in ('when', 'took'):
    s, c = df[name], cols[name]
    same(c.get('repeated', 0), int(s.dropna().duplicated().sum()), name + ' repeated')
    if name == 'took':
        d = s.describe()
        same(c['min'], str(d['min']), name + ' min')
        same(c['max'], str(d['max']), name + ' max')
        same(c['mean'], str(d['mean']), name + ' mean')
    else:
        same(pd.Timestamp(c['min']), s.min(), name + ' min')
        same(pd.Timestamp(c['max']), s.max(), name + ' max')
for name in ('flags', 'cat', 'text'):
    d, c = df[name].astype(object).describe(), cols[name]
    same(c['distinct'], int(d['unique']), name + ' unique')
    same(c['top_values'][0]['value'], d['top'], name + ' top')
    same(c['top_values'][0]['count'], int(d['freq']), name + ' freq')
    same(c.get('repeated', 0), int(df[name].dropna().duplicated().sum()), name + ' repeated')
# keys: order_id repeats 60 values; a name-less near-unique integer column too
same(cols['order_id'].get('key_like'), 'name', 'order_id key_like')
same(cols['order_id'].get('repeated'), 60, 'order_id repeated')
same(cols['ints'].get('key_like'), None, 'ints is no key')
u = pd.DataFrame({'serial': np.concatenate([np.arange(1000), [5, 6]])})
same(res_of(u)['statistics']['columns'][0].get('key_like', '')[:8], 'distinct', 'serial key_like')
# a column an index of its name claims unique (set_index(drop=False)), whose values were then changed
ui = pd.DataFrame({'sku': range(50), 'v': range(50)}).set_index('sku', drop=False)
ui['sku'] = ui['sku'] % 40
same(res_of(ui)['statistics']['columns'][0].get('key_like'), 'unique index', 'sku key_like (unique index)')
same(res_of(ui.reset_index(drop=True))['statistics']['columns'][0].get('key_like'), None, 'sku without the index is no key')
same(res_of(ui.set_index(ui['sku'].rename('sku'), drop=False))['statistics']['columns'][0].get('key_like'), None, 'sku under a repeating index is no key')
# duplicate rows, exact, past the old 20,000-row bound
big = pd.DataFrame({'a': rng.integers(0, 40, 60000), 'b': rng.integers(0, 40, 60000)})
same(res_of(big)['statistics'].get('duplicate_rows'), int(big.duplicated().sum()), 'duplicate rows 60K')
# past the exact bound: by row hashes, or not computed
huge = pd.DataFrame({'a': rng.integers(0, 1000, m._DUP_ROWS + 5000), 'b': 1})
hs = res_of(huge)['statistics']
same(hs.get('duplicate_rows'), int(huge.duplicated().sum()), 'duplicate rows by hash')
same(hs.get('duplicate_rows_by'), 'row hashes', 'duplicate_rows_by')
same(hs['columns'][0].get('repeated_not_computed'), 'not computed: %s rows > %s' % (format(len(huge), ','), format(m._DUP_ROWS, ',')), 'repeated not computed')
# -0.0 and 0.0 are one value to duplicated(), hashed or exact
z = pd.DataFrame({'a': rng.integers(0, 1000, m._DUP_ROWS + 5000), 'f': 0.0})
z.loc[::2, 'f'] = -0.0
same(res_of(z)['statistics'].get('duplicate_rows'), int(z.duplicated().sum()), 'duplicate rows by hash, -0.0')
same(res_of(z.head(1000))['statistics'].get('duplicate_rows'), int(z.head(1000).duplicated().sum()), 'duplicate rows, -0.0')
hs = res_of(huge, {'timeout': 0.000001})
if hs.get('statistics', {}).get('duplicate_rows') is not None and 'duplicate_rows_not_computed' in hs.get('statistics', {}):
    bad.append('both a count and not computed')
# a non-unique index and a MultiIndex whose tuples repeat
ix = pd.DataFrame({'v': range(6)}, index=pd.MultiIndex.from_tuples([('a', 1), ('a', 1), ('b', 1), ('b', 2), ('b', 2), ('b', 2)], names=['k', 'n']))
same(res_of(ix)['structure']['index'].get('repeated'), int(ix.index.duplicated().sum()), 'multiindex repeated')
# histogram tails: a sampled column whose extremes the sample misses
t = rng.standard_normal(m._DUP_ROWS * 3)
t[1] = -1e6
t[-2] = 1e6
th = res_of(pd.DataFrame({'t': t}))['statistics']['columns'][0]['histogram']
same([th['counts'][0], th['counts'][9]], [1, 1], 'exact tails')
same(th.get('tails_exact'), True, 'tails_exact')
print('checked' if not bad else '\n'.join(bad))
`

// TestStatsMatchPandas: every statistic of every dtype as pandas computes
// it (describe, quantile, nunique, duplicated), in the leg's interpreter.
func TestStatsMatchPandas(t *testing.T) { runProbeCheck(t, statsVsPandasCheck) }

// TestKeyProblemsNamed: a key with duplicates, a repeated MultiIndex and a
// duplicate count left out are named in the problem lines, first.
func TestKeyProblemsNamed(t *testing.T) {
	one, rows := int64(880), int64(50_880)
	rep, dup := int64(3), int64(0)
	f := false
	r := &Result{DetectedType: TypeDataFrame, Structure: &Structure{Shape: []int64{rows, 2},
		Columns: []Column{{Name: "order_id"}, {Name: "x"}},
		Index:   &Index{IsUnique: &f, Repeated: &rep, Levels: 2, Names: []any{"k", "n"}}},
		Statistics: &Statistics{DuplicateRows: &dup, DuplicateRowsNotComputed: "",
			Columns: []Statistics{{Name: "order_id", Repeated: &one, KeyLike: "name"}, {Name: "x", Repeated: &one}}}}
	ps := Problems(r)
	want := "order_id: 880 repeated values (1.7%) in 50,880 rows — a key with duplicates (a join may have fanned out)"
	if len(ps) == 0 || ps[0] != want {
		t.Fatalf("problems %q, want first %q", ps, want)
	}
	if !strings.Contains(strings.Join(ps, "\n"), "index (k, n): 3 repeated label tuples") {
		t.Errorf("problems %q: no repeated MultiIndex", ps)
	}
	for _, p := range ps {
		if strings.HasPrefix(p, "x:") {
			t.Errorf("x is no key: %q", p)
		}
	}
	r.Statistics.DuplicateRows = nil
	r.Statistics.DuplicateRowsNotComputed = "not computed: 1,000,000 rows > 100,000"
	r.problems = nil
	if got := strings.Join(Problems(r), "\n"); !strings.Contains(got, "duplicate rows: not computed: 1,000,000 rows > 100,000") {
		t.Errorf("problems %q: the uncounted duplicates are not named", got)
	}
}

// TestBudgetSaidInEveryFormat: a 1K×10 frame fitted into 2,000 bytes (as
// `dapscope inspect --max-bytes 2000`) says in markdown and tui, in one
// line, what the budget left out; the columns it dropped are counted there.
func TestBudgetSaidInEveryFormat(t *testing.T) {
	h := startHarness(t, fixture)
	res, err := Inspect(t.Context(), h, 0, "df", Options{Timeout: 10, RequestTimeout: 60})
	if err != nil {
		t.Fatal(err)
	}
	note := Fit(res, 2000)
	if note == nil || len(note.Dropped) == 0 {
		t.Fatalf("2,000 bytes left nothing out: %+v", note)
	}
	line := BudgetLine(note)
	if !strings.HasPrefix(line, "left out to fit max_bytes=2000: ") || !strings.Contains(line, " of 10 columns") {
		t.Fatalf("budget line %q", line)
	}
	for _, f := range []string{"markdown", "tui"} {
		text, err := Format(res, f, 200)
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.NewReplacer(`\_`, "_", "`", "", "|", "", "\n", " ").Replace(text)
		flat = strings.Join(strings.Fields(flat), " ")
		if !strings.Contains(flat, line) {
			t.Errorf("%s does not say what the budget left out (%q):\n%s", f, line, text)
		}
	}
}

// fingerprintCheck: a fingerprint is the same for the same content and
// changes with any one changed cell of numpy arrays, DataFrames (numeric,
// object, categorical columns), Series, lists and dicts; it reads no user
// code (an object whose __eq__/__hash__/__repr__ raise is fingerprinted).
const fingerprintCheck = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(3)
class Loud:
    def __init__(self): self.x = 1
    def __eq__(self, o): raise RuntimeError('user code ran')
    def __hash__(self): raise RuntimeError('user code ran')
    def __repr__(self): raise RuntimeError('user code ran')
df = pd.DataFrame({'a': rng.standard_normal(200000), 's': np.array(['x', 'y', 'z'], dtype=object)[rng.integers(0, 3, 200000)],
                   'c': pd.Categorical(rng.choice(['lo', 'hi'], 200000)), 'i': rng.integers(0, 9, 200000)})
def edits():
    yield 'array cell', np.arange(1000.0), lambda v: v.__setitem__(777, -1.0)
    yield 'array swap', np.arange(1000.0), lambda v: v.__setitem__([3, 4], [4.0, 3.0])
    yield 'int8 array', np.arange(13, dtype=np.int8), lambda v: v.__setitem__(12, 0)
    yield 'frame float cell', df.copy(), lambda v: v.iloc.__setitem__((123457, 0), 0.5)
    yield 'frame object cell', df.copy(), lambda v: v.iloc.__setitem__((199999, 1), 'w')
    yield 'frame category cell', df.copy(), lambda v: v.iloc.__setitem__((5, 2), 'hi' if v.iat[5, 2] == 'lo' else 'lo')
    yield 'frame index', df.copy(), lambda v: setattr(v, 'index', v.index + 1)
    yield 'frame small ints cell', pd.DataFrame(rng.integers(0, 9, (1000, 3)).astype(np.int8)), lambda v: v.iloc.__setitem__((999, 2), 9)
    yield 'frame nullable cell', pd.DataFrame({'n': pd.array(rng.integers(0, 9, 600), dtype='Int64'), 'x': 1.0}), lambda v: v.iloc.__setitem__((3, 0), pd.NA)
    yield 'frame datetime cell', pd.DataFrame({'t': pd.date_range('2020', periods=600, tz='UTC'), 'x': 1.0}), lambda v: v.iloc.__setitem__((599, 0), pd.Timestamp('1999', tz='UTC'))
    yield 'frame complex cell', pd.DataFrame({'z': np.arange(300) * 1j, 'x': 1.0}), lambda v: v.iloc.__setitem__((299, 0), 5 + 0j)
    yield 'series', pd.Series(rng.standard_normal(50)), lambda v: v.__setitem__(7, 9.0)
    yield 'list', list(range(10)), lambda v: v.__setitem__(9, 'nine')
    yield 'dict', {'a': 1, 'b': [1]}, lambda v: v.__setitem__('a', 2)
    yield 'object attr', Loud(), lambda v: setattr(v, 'x', 2)
bad = 0
for name, v, edit in edits():
    a, again = m._fingerprint(v), m._fingerprint(v)
    edit(v)
    b = m._fingerprint(v)
    if not a or a != again or a == b:
        bad += 1
        print(name, a, again, b)
# in the editor's budget: a value too big to read in the time left gets none
B = m._Budget(0.005)
if m._fp_in_budget(np.zeros(10_000_000), B) or not m._fp_in_budget(np.zeros(1000), B) or not m._fp_in_budget(df, m._Budget(5)):
    bad += 1
    print('fingerprints in budget')
# the same content, however pandas groups the columns into blocks
split = pd.DataFrame({'a': np.arange(1000.0)})
for c in 'bcd':
    split[c] = np.arange(1000.0) * 2
before = m._fingerprint(split)
split._consolidate_inplace()
if m._fingerprint(split) != before or m._fingerprint(split.copy()) != before:
    bad += 1
    print('blocks regrouped: another fingerprint')
print('checked' if not bad else 'differs')
`

func TestFingerprintFollowsContent(t *testing.T) { runProbeCheck(t, fingerprintCheck) }
