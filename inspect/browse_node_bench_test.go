// browse_node_bench_test.go: BenchmarkBrowseNode1M measures pages of 100
// rows of the 1,000,000-record array of testdata/node/browse.js (real Node
// 24 through dapscope's Node adapter), each beside one trivial evaluate in
// the same run: sorted by one numeric column (first page: the caches
// dropped before each fetch; later pages: the cached order), unsorted, and
// filtered. Later pages report x_page_size: their time over that of an
// evaluate answering a string of the page's size (floor_page_size, the
// same run). Beside them, the parts of a later page: the probe's call for
// it evaluated again as it is, its answer fetched raw (call_raw: no Go
// decoding), and with only the answer's length coming back (call_in_v8:
// V8's share, nothing sent).
//
//	go test -run '^$' -bench BrowseNode1M -benchtime 20x ./inspect

package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func BenchmarkBrowseNode1M(b *testing.B) {
	s := browseNodeSession(b)
	ctx := context.Background()
	top, err := s.TopFrame(ctx)
	if err != nil {
		b.Fatal(err)
	}
	opts := inspect.Options{Timeout: 10, RequestTimeout: 120}
	const rows = 1_000_000
	get := func(b *testing.B, t inspect.Target, sel inspect.Selection) *inspect.PageResult {
		r, err := inspect.Browse(ctx, t, top.Id, "big", sel, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Page.Rows) != 100 {
			b.Fatalf("page of %d rows", len(r.Page.Rows))
		}
		return r
	}
	cold := &freshStops{Session: s}
	const q = `qty > 10 && flag`
	var step int64
	pageSizeNs := 0.0 // floor_page_size's time per op, for the later pages' ratio
	later := func() *inspect.RowWindow { step++; return window(10_000+(step*790_013)%(rows/2), 100) }
	for _, c := range []struct {
		name string
		t    inspect.Target
		sel  func() inspect.Selection
	}{
		{"unsorted", s, func() inspect.Selection { return inspect.Selection{Rows: later()} }},
		{"sorted_first", cold, func() inspect.Selection { return inspect.Selection{Sort: sortBy("num", false), Rows: window(0, 100)} }},
		{"sorted_later", s, func() inspect.Selection { return inspect.Selection{Sort: sortBy("num", false), Rows: later()} }},
		{"filtered_first", cold, func() inspect.Selection { return inspect.Selection{Filter: q, Rows: window(0, 100)} }},
		{"filtered_later", s, func() inspect.Selection { // the filter keeps ~371,000 rows
			step++
			return inspect.Selection{Filter: q, Rows: window(10_000+(step*7_919)%300_000, 100)}
		}},
	} {
		b.Run("floor", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Evaluate(ctx, "1", top.Id, "repl"); err != nil {
					b.Fatal(err)
				}
			}
		})
		if c.name == "unsorted" {
			// The transport's share: an evaluate whose answer is as big as
			// a page (fetched raw like the probe's), nothing computed.
			size := len(mustJSON(b, get(b, s, c.sel())))
			b.Run("floor_page_size", func(b *testing.B) {
				args := map[string]any{"expression": fmt.Sprintf("'x'.repeat(%d)", size), "frameId": top.Id, "context": "clipboard"}
				for b.Loop() {
					var out struct{ Result string }
					if err := s.Request(ctx, "evaluate", args, &out); err != nil || len(out.Result) != size {
						b.Fatalf("%d bytes, %v", len(out.Result), err)
					}
				}
				b.ReportMetric(float64(size), "bytes")
				pageSizeNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			})
			rec := &callRecorder{Session: s}
			get(b, rec, c.sel())
			for _, part := range []struct{ name, expr string }{{"call_raw", rec.expr}, {"call_in_v8", "(" + rec.expr + ").length"}} {
				b.Run(part.name, func(b *testing.B) {
					args := map[string]any{"expression": part.expr, "frameId": top.Id, "context": "clipboard"}
					for b.Loop() {
						var out struct{ Result string }
						if err := s.Request(ctx, "evaluate", args, &out); err != nil || len(out.Result) < 4 {
							b.Fatalf("answer %.80q, %v", out.Result, err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pageSizeNs, "x_page_size")
				})
			}
		}
		b.Run(c.name, func(b *testing.B) {
			get(b, c.t, c.sel()) // the probe installed and the order computed before the timing
			probe := 0.0
			for b.Loop() {
				probe += get(b, c.t, c.sel()).ProbeMs
			}
			b.ReportMetric(probe/float64(b.N), "probe_ms/op")
			if pageSizeNs > 0 && c.t == s { // #32's floor: ≤ 1.5× a string of the page's size
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pageSizeNs, "x_page_size")
			}
		})
	}
}

// callRecorder is the session as the probe's Transport, keeping the last
// call's expression (it holds the stop's values generation: evaluated again
// with no browse between, it finds the probe's cached view).
type callRecorder struct {
	*session.Session
	expr string
}

func (c *callRecorder) EvaluateProbe(ctx context.Context, req inspect.EvalRequest) (string, error) {
	c.expr = req.Expression
	var out struct{ Result string }
	err := c.Session.Request(ctx, "evaluate", map[string]any{"expression": req.Expression, "frameId": req.FrameID, "context": req.Context}, &out)
	return out.Result, err
}

func mustJSON(tb testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
