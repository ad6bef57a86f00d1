// node_hostile_test.go: an inspection runs none of the program's code. A
// getter or a Proxy past the rows the JavaScript probe samples to
// recognise a table (testdata/node/hostile_probe.js) is never run by an
// inspection, a summary, a page, a sort or a filter: the fixture's counter
// stays 0.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

const hostileFixture = "../testdata/node/hostile_probe.js"

// hostileHits reads the fixture's counter of getters, traps and replaced
// intrinsics that ran.
func hostileHits(t *testing.T, js *jsHarness) string {
	t.Helper()
	n, err := js.EvaluateProbe(context.Background(), EvalRequest{Expression: "String(hostile.hits)"})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestJSProbeNeverRunsGettersOrTraps(t *testing.T) {
	js := startJSHarness(t, hostileFixture)
	ctx := context.Background()
	for _, name := range []string{"ownGetter", "protoGetter", "proxied", "elementGetter"} {
		t.Run(name, func(t *testing.T) {
			r, err := Inspect(ctx, js, 0, name, Options{Timeout: 10})
			if err != nil || r.Error != nil {
				t.Fatalf("inspect: %v %+v", err, r)
			}
			if h := hostileHits(t, js); h != "0" {
				t.Fatalf("inspect ran the program's code %s times", h)
			}
			if _, err := Summaries(ctx, js, 0, []Path{{Step{Kind: "name", Value: name}}}, 10*time.Second); err != nil {
				t.Fatalf("summaries: %v", err)
			}
			if h := hostileHits(t, js); h != "0" {
				t.Fatalf("a summary ran the program's code %s times", h)
			}
			for _, sel := range []Selection{
				{Rows: &RowWindow{Offset: 1230, Limit: 30}},
				{Rows: &RowWindow{Offset: 2340, Limit: 30}},
				{Rows: &RowWindow{Offset: 2995, Limit: 30}},
				{Rows: &RowWindow{Offset: 4000, Limit: 30}},
				{Sort: []SortKey{{Column: "id", Descending: true}}, Rows: &RowWindow{Offset: 1000, Limit: 30}},
				{Filter: "id > 2", Rows: &RowWindow{Offset: 1230, Limit: 30}},
				{Filter: "$row.id > 2 && $row.qty !== 999", Rows: &RowWindow{Offset: 1230, Limit: 30}},
				{Filter: "qty > 2"},
			} {
				_, err := Browse(ctx, js, 0, name, sel, Options{Timeout: 10})
				if e := errcode.As(err); err != nil && (e == nil || e.Code != errcode.InvalidExpression && e.Code != errcode.InvalidArgument && e.Code != errcode.VariableNotFound) {
					t.Fatalf("browse %+v: %v", sel, err)
				}
				if h := hostileHits(t, js); h != "0" {
					t.Fatalf("browse %+v ran the program's code %s times (%v)", sel, h, err)
				}
			}
		})
	}
	// An accessor past the sample is reported as one: listed, never read.
	p, err := Browse(ctx, js, 0, "ownGetter", Selection{Rows: &RowWindow{Offset: 1237, Limit: 1}}, Options{Timeout: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(p.Page.Rows); !strings.Contains(got, "<getter>") {
		t.Fatalf("row 1237: %s", got)
	}
	_, err = Browse(ctx, js, 0, "ownGetter", Selection{Filter: "qty > 2"}, Options{Timeout: 10})
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "getters") {
		t.Fatalf("a filter on a getter column: %v", err)
	}
}

// hostileFacts is what the probe answers of small: an inspection, its
// summary and a sorted, filtered page, without timings.
func hostileFacts(t *testing.T, js *jsHarness) string {
	t.Helper()
	ctx := context.Background()
	r, err := Inspect(ctx, js, 0, "small", Options{Timeout: 10})
	if err != nil {
		t.Fatal(err)
	}
	r.ProbeMs, r.ElapsedMs = 0, 0
	s, err := Summaries(ctx, js, 0, []Path{{Step{Kind: "name", Value: "small"}}}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Browse(ctx, js, 0, "small", Selection{Sort: []SortKey{{Column: "qty", Descending: true}, {Column: "id"}}, Filter: `note.startsWith("n") && qty > 2`, Rows: &RowWindow{Offset: 3, Limit: 10}}, Options{Timeout: 10})
	if err != nil {
		t.Fatal(err)
	}
	p.ProbeMs = 0
	if p.Page != nil {
		p.Page.Cached = false
	}
	b, _ := json.Marshal([]any{r, s, p})
	return string(b)
}

// TestJSProbeUsesItsOwnIntrinsics: the program replaces every method and
// getter of the built-ins after the probe was installed (with ones that
// count, and answer wrongly: sort does nothing, JSON.stringify answers
// {}); an inspection, a summary and a sorted, filtered page run none of
// them and answer the same facts.
func TestJSProbeUsesItsOwnIntrinsics(t *testing.T) {
	js := startJSHarness(t, hostileFixture)
	ctx := context.Background()
	before := hostileFacts(t, js)
	n, err := js.EvaluateProbe(ctx, EvalRequest{Expression: "String(replaceIntrinsics())"})
	if err != nil || n == "0" {
		t.Fatalf("replaceIntrinsics: %s %v", n, err)
	}
	after := hostileFacts(t, js)
	if got, _ := js.EvaluateProbe(ctx, EvalRequest{Expression: "String(hostile.intrinsics)"}); got != "0" {
		names, _ := js.EvaluateProbe(ctx, EvalRequest{Expression: "hostile.names.join(' ')"})
		t.Fatalf("the program's replaced built-ins ran %s times: %s", got, names)
	}
	if after != before {
		t.Fatalf("the facts changed:\nbefore %s\nafter  %s", before, after)
	}
	// one that cannot be put back: no inspection, and it did not run
	if _, err := js.EvaluateProbe(ctx, EvalRequest{Expression: "Object.defineProperty(Array.prototype, 'fill', {value: function () { hostile.hits++; return this; }, configurable: false}), 'ok'"}); err != nil {
		t.Fatal(err)
	}
	r, err := Inspect(ctx, js, 0, "small", Options{Timeout: 10})
	if err == nil && r.Error != nil {
		err = r.Error
	}
	if e := errcode.As(err); e == nil || e.Code != errcode.NotSupported || !strings.Contains(e.Message, "Array.prototype.fill") {
		t.Fatalf("a built-in replaced for good: %v", err)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("Array.prototype.fill ran %s times", h)
	}
}

// TestJSProbeGetterPastABudget: a summary's budget (50 ms) ends before
// every row of a 1,000,000-record array is checked for getters: the
// summary is its shape only and reads no cell, and so does an inspection
// whose budget ends first; one with time enough finds the getter on the
// last row and lists its column.
func TestJSProbeGetterPastABudget(t *testing.T) {
	js := startJSHarness(t, hostileFixture)
	ctx := context.Background()
	if out, err := js.EvaluateProbe(ctx, EvalRequest{Expression: "makeLate()"}); err != nil || out != "ok" {
		t.Fatalf("makeLate: %q %v", out, err)
	}
	s, err := Summaries(ctx, js, 0, []Path{{Step{Kind: "name", Value: "late"}}}, time.Millisecond)
	if err != nil || len(s) != 1 {
		t.Fatalf("summaries: %v %+v", err, s)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("a summary ran the getter %s times: %+v", h, s[0])
	}
	// an inspection whose budget ends first reads no cell either (its
	// preview's tail would be the getter's row)
	r, err := Inspect(ctx, js, 0, "late", Options{Timeout: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("an inspection out of time ran the getter %s times: %v", h, r.Warnings)
	}
	r, err = Inspect(ctx, js, 0, "late", Options{Timeout: 10})
	if err != nil || r.Error != nil {
		t.Fatalf("inspect: %v %+v", err, r)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("an inspection ran the getter %s times", h)
	}
	b, _ := json.Marshal(r.Structure)
	if !strings.Contains(string(b), `{"name":"qty","dtype":"getter"`) {
		t.Fatalf("the getter column: %s", b)
	}
}
