// Tests of the data engines beyond their parity with pandas
// (engines_parity_test.go): a lazy value is never run unless asked, the
// engines' one-line summaries, a Dask frame on a distributed cluster of
// two worker processes, and the filter compiled per engine under fuzzing.

package inspect

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
)

// TestEnginesLazyNotRun: a polars LazyFrame whose plan records each run
// gives its schema and plan, and its summary, without running; with the
// compute option it runs once and says so.
func TestEnginesLazyNotRun(t *testing.T) {
	testpython.Require(t, "pandas", "polars")
	h := startHarness(t, enginesFixture)
	ctx := context.Background()
	ran := func() string {
		t.Helper()
		got, err := h.EvaluateProbe(ctx, EvalRequest{Expression: "str(len(RAN))", RawString: true})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	r, err := Inspect(ctx, h, 0, "pl_watch", Options{Timeout: 10, RequestTimeout: 60})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Structure.Engine
	if e == nil || !e.Lazy || e.Plan == "" || e.Computed != "" || len(r.Structure.Columns) != 7 || r.Statistics != nil || r.Preview != nil {
		t.Errorf("lazy, not computed: %+v %+v", r.Structure, e)
	}
	items, err := Summaries(ctx, h, 0, []Path{mustPath(t, "pl_watch")}, 5*time.Second)
	if err != nil || len(items) != 1 || items[0].Line() != "LazyFrame 7 columns · lazy, not collected" {
		t.Fatalf("summary: %+v %v", items, err)
	}
	if got := ran(); got != "0" {
		t.Fatalf("the plan ran %s times without compute", got)
	}
	r, err = Inspect(ctx, h, 0, "pl_watch", Options{Timeout: 10, RequestTimeout: 60, Compute: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ran(); got != "1" {
		t.Errorf("with compute the plan ran %s times, want 1", got)
	}
	if e := r.Structure.Engine; e == nil || !strings.HasPrefix(e.Computed, "computed by polars") || r.Structure.Shape[0] != 36 || r.Statistics == nil {
		t.Errorf("computed: %+v", r.Structure)
	}
}

func mustPath(t *testing.T, s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEnginesSummaries: each engine's one-line summary (stop reports,
// hovers, the kernel view), from what the engine knows without running.
func TestEnginesSummaries(t *testing.T) {
	testpython.Require(t, "pandas", "polars", "pyarrow", "duckdb", "dask")
	h := startHarness(t, enginesFixture)
	want := map[string]string{
		"pl_df":    "DataFrame 36 × 7 · ",
		"pl_ser":   "Series Float64 (36,) · 4 nulls",
		"pl_lazy":  "LazyFrame 7 columns · lazy, not collected",
		"pa_t":     "Table 36 × 7 · ",
		"pa_ser":   "ChunkedArray double (36,) · 4 nulls",
		"dk_rel":   "DuckDBPyRelation 7 columns · DuckDB relation, not run",
		"dask_df":  "DataFrame 7 columns · 3 partitions, not computed",
		"dask_arr": "Array int64 (36,)",
	}
	var paths []Path
	for k := range want {
		paths = append(paths, mustPath(t, k))
	}
	items, err := Summaries(context.Background(), h, 0, paths, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		line := it.Line()
		if w := want[it.Name]; !strings.HasPrefix(line, w) || !it.Recognized() {
			t.Errorf("%s: %q (%+v), want %q…", it.Name, line, it, w)
		}
	}
}

// TestEnginesDaskCluster: a Dask frame on a distributed.LocalCluster of
// two worker processes is inspected and browsed from the program's process
// through Dask's API: the work runs on the workers (what the probe ships
// there needs nothing of the probe: the probe is a module the workers do
// not have, as in a real debuggee), only bounded results come back, and
// they are pandas' facts and pages.
func TestEnginesDaskCluster(t *testing.T) {
	testpython.Require(t, "pandas", "dask", "distributed")
	if testpython.IsDebian() {
		t.Skip("Debian's dask 2022.12 has no dask-expr; the cluster is tested in the .venv leg")
	}
	runProbeCheck(t, daskClusterCheck)
}

const daskClusterCheck = `
import json, os, sys, time, types
import pandas as pd
src = sys.stdin.read()
m = types.ModuleType('_dapscope_probe_cluster_check')
exec(compile(src, '<dapscope-probe>', 'exec'), m.__dict__)
sys.modules[m.__name__] = m  # as installed in a debuggee: workers cannot import it
sys.path.insert(0, os.path.join('..', 'testdata', 'parity'))
os.environ['DAPSCOPE_FIXTURE_NO_MAIN'] = '1'
import engines
from distributed import Client, LocalCluster
import dask, dask.dataframe as dd
V = engines.build()
def _slow(p):
    time.sleep(0.2)
    return p
dask.config.set(scheduler=None)
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
    L = {'pdf': V['pdf'], 'ddf': dd.from_pandas(V['pdf'], npartitions=4)}
    run = lambda n: json.loads(m.run(L, {}, json.dumps({'path': [['name', n]], 'opts': {'timeout': 30}})))
    sel = lambda n, s: json.loads(m.select(L, {}, json.dumps({'path': [['name', n]], 'selection': s, 'gen': 1})))
    got, want = run('ddf'), run('pdf')
    bad = []
    e = got['structure']['engine']
    if e.get('cluster') != cluster.scheduler_address or e.get('partitions') != 4 or not e.get('computed', '').startswith('computed by Dask'):
        bad.append('engine %r' % e)
    if got.get('warnings'):
        bad.append('warnings %r' % got['warnings'])
    for k in ('shape',):
        if got['structure'][k] != want['structure'][k]:
            bad.append('%s %r %r' % (k, got['structure'][k], want['structure'][k]))
    for a, b in zip(got['structure']['columns'], want['structure']['columns']):
        if a['null_count'] != b['null_count']:
            bad.append('nulls %r %r' % (a, b))
    gs, ws = got['statistics']['columns'][1], want['statistics']['columns'][1]
    for k in ('min', 'max', 'mean', 'quantiles', 'histogram', 'distinct'):
        if gs.get(k) != ws.get(k):
            bad.append('price %s %r %r' % (k, gs.get(k), ws.get(k)))
    flt = {'filter': 'price > 50 and city != "Nice"', 'sort': [{'column': 'city'}, {'column': 'qty', 'descending': True}], 'rows': {'offset': 2, 'limit': 5}}
    for s in (flt, dict(flt, count=True), {'rows': {'offset': 20, 'limit': 10}}):  # uncounted first (then kept for the stop)
        g, w = sel('ddf', s), sel('pdf', s)
        if 'error' in g or 'error' in w:
            bad.append('page %r %r' % (g.get('error'), w.get('error')))
            continue
        if ('total_pending' in g['page']) != (s is flt):  # the filter's counts: on request
            bad.append('page total_pending %r' % g['page'].get('total_pending'))
        for k in ('positions', 'rows') if s is flt else ('positions', 'rows', 'total_rows', 'filter_na_rows'):
            if g['page'].get(k) != w['page'].get(k):
                bad.append('page %s %r %r' % (k, g['page'].get(k), w['page'].get(k)))
    # a slow graph (40 partitions of 0.2 s) stops at a 1 s budget: its
    # futures are cancelled, the cluster is left with none of its tasks
    L['slow'] = dd.from_pandas(pd.DataFrame({'x': range(400)}), npartitions=40).map_partitions(_slow)
    r = json.loads(m.run(L, {}, json.dumps({'path': [['name', 'slow']], 'opts': {'timeout': 1}})))
    if 'dask.compute' not in (r.get('timed_out') or []) or not r.get('partial') or not r.get('structure', {}).get('engine'):
        bad.append('slow on the cluster: %r' % dict((k, r.get(k)) for k in ('timed_out', 'partial', 'warnings', 'error')))
    g = json.loads(m.select(L, {}, json.dumps({'path': [['name', 'slow']], 'selection': {'sort': [{'column': 'x'}]}, 'gen': 2, 'timeout': 1})))
    if (g.get('error') or {}).get('code') != 'INSPECTION_TIMEOUT':
        bad.append('slow page on the cluster: %r' % g.get('error'))
    for _ in range(300):  # cancelling is asynchronous: wait until the scheduler has forgotten them
        left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        if not left:
            break
        time.sleep(0.1)
    if left:
        bad.append('the cluster still holds %d tasks of the stopped computes' % left)
    for b in bad:
        print(b)
print('checked' if not bad else 'differs')
`

// TestEnginesDaskStops: a started Dask compute on the threaded scheduler
// stops at the time budget (a callback refuses every later task): a slow
// graph of 40 partitions of 0.2 s each, inspected and paged with a 0.5 s
// budget, runs only part of its partitions and says what stopped.
func TestEnginesDaskStops(t *testing.T) {
	testpython.Require(t, "pandas", "dask")
	runProbeCheck(t, daskStopsCheck)
}

const daskStopsCheck = `
import json, sys, time, types
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
import pandas as pd, dask, dask.dataframe as dd
ran = []
def slow(p):
    time.sleep(0.2)
    ran.append(1)
    return p
dask.config.set(scheduler='threads', num_workers=2)
L = {'slow': dd.from_pandas(pd.DataFrame({'x': range(400)}), npartitions=40).map_partitions(slow)}
bad = []
r = json.loads(m.run(L, {}, json.dumps({'path': [['name', 'slow']], 'opts': {'timeout': 0.5}})))
if 'dask.compute' not in (r.get('timed_out') or []) or not r.get('partial') or not r.get('structure', {}).get('engine'):
    bad.append('inspect: %r' % dict((k, r.get(k)) for k in ('timed_out', 'partial', 'warnings', 'error')))
g = json.loads(m.select(L, {}, json.dumps({'path': [['name', 'slow']], 'selection': {'sort': [{'column': 'x'}]}, 'gen': 1, 'timeout': 0.5})))
if (g.get('error') or {}).get('code') != 'INSPECTION_TIMEOUT':
    bad.append('page: %r' % g)
# the duplicate rows' compute of its own, stopped at its budget: the count says so, the budget names it
B = m._Budget(0.3)
st = {'columns': [{'name': 'x'}]}
m._eng_duplicate_rows(st, 400, [m._EngCol('x', 'int64', 'int')], m._Budget(5), lambda: m._dask_distinct_rows(B, L['slow'], []))
if st.get('duplicate_rows_not_computed') != 'not computed: the Dask compute stopped at the time budget (duplicate_rows)' or \
        'duplicate_rows' not in B.timed_out or 'duplicate_rows' in st:
    bad.append('duplicate rows: %r %r' % (st, B.timed_out))
time.sleep(1)  # the tasks running when the budget ended finish, their results unread
if len(ran) >= 120:
    bad.append('every partition ran (%d calls): nothing stopped' % len(ran))
for b in bad:
    print(b)
print('checked' if not bad else 'differs')
`

var engineFilterSeeds = append([]string{
	`price > 50 and city != "Nice"`,
	`city.str.contains("i", case=False) and day > "2024-06-01"`,
	`(qty * 2 >= 8) & ~ok | id.isin([1, 2, 3])`,
	`kind == "a" or kind in ["b"]`,
	`price / 0 > 1`, `qty // 0 == 1`, `qty % -4 == 1`, `qty ** 70 > 0`,
	`city + "x" == "Nicex"`, `day > "not a date"`, `ok ^ (qty > 3)`,
	`city == "x'; DROP TABLE t; --"`, `"a" < 1`, `qty > "3"`, `city.str.len() > 4`,
	`duplicated(subset=["city", "kind"], keep=False)`, `(qty + 1).duplicated(keep="last")`, `duplicated(subset="nope")`,
	`city.str.match("L[iy]", case=False)`, `not duplicated(keep=True)`,
}, filterSeeds...)

// fuzzEngineFilter: any filter text over an engine's table is a page or a
// typed refusal, never INTERNAL; DuckDB's catalog is never changed.
func fuzzEngineFilter(f *testing.F, expr string, modules ...string) {
	testpython.Require(f, append([]string{"pandas"}, modules...)...)
	for _, s := range engineFilterSeeds {
		f.Add(s)
	}
	h := startHarness(f, enginesFixture)
	f.Fuzz(func(t *testing.T, filter string) {
		ctx := context.Background()
		res, err := Browse(ctx, h, 0, expr, Selection{Filter: filter, Rows: &RowWindow{Limit: 5}}, Options{Timeout: 5, RequestTimeout: 60})
		if err == nil && res.Error != nil {
			err = res.Error
		}
		if err != nil {
			e := errcode.As(err)
			if e == nil || e.Code == errcode.Internal {
				t.Fatalf("filter %q: %v", filter, err)
			}
		} else if res.Page == nil {
			t.Fatalf("filter %q: no page", filter)
		}
		if expr == "dk_rel" {
			got, err := h.EvaluateProbe(ctx, EvalRequest{Expression: "str(dk_con.sql('select count(*) from duckdb_tables()').fetchall())", RawString: true})
			if err != nil || got != "[(3,)]" { // the fixture's three tables (orders, sales, sales_ns)
				t.Fatalf("filter %q changed the catalog: %s %v", filter, got, err)
			}
		}
	})
}

func FuzzEngineFilterPolars(f *testing.F) { fuzzEngineFilter(f, "pl_df", "polars") }
func FuzzEngineFilterArrow(f *testing.F)  { fuzzEngineFilter(f, "pa_t", "pyarrow") }
func FuzzEngineFilterDuckDB(f *testing.F) { fuzzEngineFilter(f, "dk_rel", "duckdb") }
func FuzzEngineFilterDask(f *testing.F)   { fuzzEngineFilter(f, "dask_df", "dask") }

// TestEnginesDuckDBTableByName: a connection's table asked by name is
// inspected and browsed as a relation; a missing one lists the tables.
func TestEnginesDuckDBTableByName(t *testing.T) {
	testpython.Require(t, "pandas", "duckdb")
	h := startHarness(t, enginesFixture)
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 60}
	r, err := Browse(ctx, h, 0, "dk_con['sales']", Selection{Sort: []SortKey{{Column: "price", Descending: true}}, Rows: &RowWindow{Limit: 3}}, opts)
	if err != nil || r.Page == nil || r.Page.Total() != 36 || len(r.Page.Rows) != 3 {
		t.Fatalf("%+v %v", r, err)
	}
	_, err = Inspect(ctx, h, 0, "dk_con['nope']", opts)
	if e := errcode.As(err); e == nil || e.Code != errcode.VariableNotFound || strings.Join(e.AvailableVariables, ",") != "orders,sales,sales_ns" {
		t.Errorf("missing table: %v", err)
	}
}
