// Ray Data (issue 33): Datasets on one local Ray instance (the fixture's,
// testdata/parity/engines_ray.py) inspected lazily: schema, blocks, the
// rows Ray's metadata knows, the plan, and nothing executed
// (a watched map leaves a file per run: none appears) unless compute asks;
// then ONE aggregate's facts (count, nulls, min/max/mean) are pandas',
// labelled "computed by Ray". Pages are Ray's filter (its own expressions)
// and limit, with pandas' rows; a sorted page is refused.

package inspect

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
)

func TestEnginesRay(t *testing.T) {
	testpython.Require(t, "pandas", "pyarrow", "ray")
	watch := t.TempDir()
	cmd := exec.Command(python, "testdata/harness.py", "../testdata/parity/engines_ray.py")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "RAY_WATCH_DIR="+watch, "RAY_USAGE_STATS_ENABLED=0")
	h := startHarnessCmd(t, cmd)
	ctx := context.Background()
	lazy := Options{Timeout: 10, RequestTimeout: 120}
	ran := func() int {
		ents, _ := os.ReadDir(watch)
		return len(ents)
	}

	// Lazy: what Ray knows without running anything.
	got, err := Inspect(ctx, h, 0, "rlazy", lazy)
	if err != nil {
		t.Fatal(err)
	}
	if got.Structure == nil {
		t.Fatalf("rlazy: %+v", got)
	}
	e := got.Structure.Engine
	if got.DetectedType != TypeDataFrame || e == nil || e.Name != "ray" || !e.Lazy || e.Partitions == nil || *e.Partitions != 3 ||
		!strings.Contains(e.Plan, "Map") || e.Computed != "" || got.Statistics != nil || got.Preview != nil {
		t.Fatalf("rlazy: %+v %+v", got.Structure, e)
	}
	if len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "schema not known") {
		t.Errorf("rlazy warnings %v", got.Warnings)
	}
	got, err = Inspect(ctx, h, 0, "rds", lazy)
	if err != nil {
		t.Fatal(err)
	}
	if s := got.Structure; len(s.Shape) != 2 || s.Shape[0] != 36 || s.Shape[1] != 7 || len(s.Columns) != 7 || s.Columns[1].Name != "price" ||
		s.Engine.Computed != "" || got.Statistics != nil {
		t.Fatalf("rds (from metadata): %+v", s)
	}
	items, err := Summaries(ctx, h, 0, []Path{mustPath(t, "rds"), mustPath(t, "rlazy")}, 5*time.Second)
	if err != nil || len(items) != 2 || !strings.Contains(items[0].Line(), "7 columns · Ray Dataset of 36 rows, not executed") ||
		!strings.Contains(items[1].Line(), "columns not known") {
		t.Fatalf("summaries %+v %v", items, err)
	}
	if n := ran(); n != 0 {
		t.Fatalf("an inspection without compute ran the plan (%d files)", n)
	}
	got, err = Inspect(ctx, h, 0, "rmat", lazy)
	if err != nil || got.Structure.Engine.Lazy || *got.Structure.Engine.Partitions != 3 || got.Structure.Shape[0] != 36 {
		t.Fatalf("rmat: %+v %v", got.Structure, err)
	}

	// compute: ONE aggregate, pandas' facts.
	opts := Options{Timeout: 10, RequestTimeout: 120, Compute: true}
	want, err := Inspect(ctx, h, 0, "pdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	// A Ray execution's start-up can outlast the budget on a loaded machine:
	// the run goes on, and the next inspection takes its result (one
	// execution, never a second one started).
	for try := 0; ; try++ {
		got, err = Inspect(ctx, h, 0, "rds", opts)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Partial || try == 5 || !strings.Contains(strings.Join(got.Warnings, " "), "runs on") {
			break
		}
		t.Logf("try %d: %v", try, got.Warnings)
	}
	if e := got.Structure.Engine; !strings.HasPrefix(e.Computed, "computed by Ray: ") || got.Statistics == nil || got.Statistics.Computed != e.Computed || got.Partial {
		t.Fatalf("rds computed: %+v %+v %v", e, got.Statistics, got.Warnings)
	}
	for i, c := range got.Structure.Columns {
		w := want.Structure.Columns[i]
		if c.Name != w.Name || c.NullCount == nil || w.NullCount == nil || *c.NullCount != *w.NullCount {
			t.Errorf("column %d: %+v, pandas %+v", i, c, w)
		}
	}
	stat := func(r *Result, name string) *Statistics {
		for i := range r.Statistics.Columns {
			if r.Statistics.Columns[i].Name == name {
				return &r.Statistics.Columns[i]
			}
		}
		return nil
	}
	for _, name := range []string{"id", "price", "qty"} {
		g, w := stat(got, name), stat(want, name)
		if g == nil || w == nil || !sameFact(g.Min, w.Min, true) || !sameFact(g.Max, w.Max, true) || !sameFact(g.Mean, w.Mean, true) {
			t.Errorf("%s: ray %+v, pandas %+v", name, g, w)
		}
	}
	if got.Preview == nil || len(got.Preview.Head) == 0 || len(got.Preview.Head) > 5 {
		t.Errorf("preview %+v", got.Preview)
	}
	got, err = Inspect(ctx, h, 0, "rlazy", opts)
	if err != nil || got.Structure.Shape[1] != 8 || ran() == 0 {
		t.Fatalf("rlazy with compute: %+v (%d runs) %v", got.Structure, ran(), err)
	}

	// Pages: Ray's filter, pandas' rows.
	sel := Selection{Filter: `price > 50 and city != "Nice" and city.str.startswith("L")`, Columns: []any{"id", "price", "city"}}
	wp, err := Browse(ctx, h, 0, "pdf", sel, opts)
	if err != nil {
		t.Fatal(err)
	}
	gp, err := Browse(ctx, h, 0, "rds", sel, opts)
	if err != nil || gp.Error != nil {
		t.Fatalf("page: %v %+v", err, gp)
	}
	grows, gok := factAt(pageFacts(t, gp), "page.rows")
	wrows, wok := factAt(pageFacts(t, wp), "page.rows")
	if !gok || !wok || wp.Page.Total() == 0 || gp.Page.Total() != wp.Page.Total() || gp.Page.All() != 36 || !sameFact(grows, wrows, false) ||
		!strings.HasPrefix(gp.Page.Computed, "computed by Ray") {
		t.Errorf("page: ray %+v, pandas %+v", gp.Page, wp.Page)
	}
	t.Logf("page of %d rows: %v", gp.Page.Total(), grows)
	r, err := Browse(ctx, h, 0, "rds", Selection{Sort: []SortKey{{Column: "price"}}}, opts)
	if err == nil && r.Error != nil {
		err = r.Error
	}
	if !errcode.Is(err, errcode.InvalidArgument) {
		t.Errorf("sorted page: %v", err)
	}
}
