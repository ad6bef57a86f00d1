// smartvalues_node_test.go: smart values in the editor's own views for a
// Node session against real node. A scripted editor reads the locals and
// hovers through the proxy and straight from dapscope's Node adapter; the
// proxied responses carry the JavaScript probe's summaries for the array
// of records, the typed arrays, the arrow/arquero tables and the
// nodejs-polars DataFrame and Series, and every other field equals the
// direct run; plain values (a plain Proxy too), repl evaluates, a summary
// past its budget and "smartValues": false are untouched.

package session

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	nodeadapter "github.com/dapscope/dapscope/server/adapter/node"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// jsSmartProgram needs the npm libraries of testdata/node/libs.
func jsSmartProgram(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "node", "libs")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "apache-arrow", "package.json")); err != nil {
		t.Fatalf("the npm libraries are not installed: run `make setup-node-libs` (%v)", err)
	}
	return filepath.Join(dir, "smart_values.js")
}

// readJSFrame: after the stop, the Variables view and a few hovers.
//
//	→ initialize, launch, setBreakpoints(BREAK), configurationDone ← stopped
//	→ stackTrace ← frames   → scopes ← Local   → variables ← locals
//	→ evaluate rows (hover), rows (repl), n (hover) ← results
//	→ disconnect
func readJSFrame(t *testing.T, ed *daptest.Client, program string, extra map[string]any) smartView {
	ed.Initialize(daptest.InitArgs("test-editor", "node"))
	config := map[string]any{"type": "node", "request": "launch", "program": program}
	for k, v := range extra {
		config[k] = v
	}
	_, frame := ed.LaunchToFrame(config, program, jsBreakLineOf(t, program))
	ref := ed.Scopes(frame.Id)[0].VariablesReference
	var vars struct {
		Variables []map[string]any `json:"variables"`
	}
	if err := ed.Call("variables", map[string]any{"variablesReference": ref}).Unmarshal(&vars); err != nil {
		t.Fatal(err)
	}
	v := smartView{locals: vars.Variables}
	ev := func(expr, ctx string) map[string]any {
		var b map[string]any
		if err := ed.Call("evaluate", map[string]any{"expression": expr, "frameId": frame.Id, "context": ctx}).Unmarshal(&b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	v.hoverSales, v.replSale, v.hoverNum = ev("rows", "hover"), ev("rows", "repl"), ev("n", "hover")
	ed.Disconnect(true)
	return v
}

func jsBreakLineOf(t *testing.T, program string) int {
	t.Helper()
	src, err := readLines(program)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range src {
		if strings.HasSuffix(strings.TrimSpace(l), "// BREAK") {
			return i + 1
		}
	}
	t.Fatalf("no // BREAK line in %s", program)
	return 0
}

func proxiedJSView(t *testing.T, program string, budget time.Duration, extra map[string]any) smartView {
	m := newTestManager(t, ManagerOptions{SmartValuesBudget: budget})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{Adapter: "node"}) }()
	ed := daptest.New(t, edSide)
	v := readJSFrame(t, ed, program, extra)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	if f := ed.Foreign(); len(f) > 0 {
		t.Fatalf("foreign responses: %v", f)
	}
	return v
}

func directJSView(t *testing.T, program string) smartView {
	ours, theirs := net.Pipe()
	srv := nodeadapter.New(theirs, nodeadapter.Options{Logger: testLogger(t)})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(); _ = theirs.Close() }()
	ed := daptest.New(t, ours)
	v := readJSFrame(t, ed, program, nil)
	ed.Close()
	if err := <-done; err != nil {
		t.Fatalf("node adapter: %v", err)
	}
	return v
}

func TestSmartValuesNode(t *testing.T) {
	program := jsSmartProgram(t)
	direct := directJSView(t, program)
	smart := proxiedJSView(t, program, 20*time.Second, nil)
	want := map[string]string{
		"rows":   "Array 500 × 4 · 145 null cells in price, city",
		"temps":  "Float64Array float64 (1,000,) · 20 NaN · min 8 max 31.9",
		"counts": "Int32Array int32 (4,) · min 1 max 9",
		"table":  "Table 40 × 2 · 2 nulls in city",
		"frame":  "ColumnTable 3 × 2",
		// nodejs-polars values are Proxies: the adapter's own value is
		// "Proxy(Object)"; a plain Proxy (wrapped) keeps it.
		"plFrame":  "DataFrame 4 × 2 · 2 nulls in city",
		"plSeries": "Series Float64 (4,) · 1 null",
	}
	if len(smart.locals) != len(direct.locals) || len(smart.locals) < 11 {
		t.Fatalf("locals: %d proxied, %d direct", len(smart.locals), len(direct.locals))
	}
	for i, d := range direct.locals {
		p := smart.locals[i]
		name := d["name"].(string)
		if w, ok := want[name]; ok {
			if got, _ := p["value"].(string); got != w {
				t.Errorf("%s: value %q, want %q (adapter's: %.60q…)", name, got, w, d["value"])
			}
			delete(want, name)
			p, d = without(p, "value", "variablesReference"), without(d, "value", "variablesReference")
		} else {
			p, d = without(p, "variablesReference"), without(d, "variablesReference")
		}
		if !reflect.DeepEqual(p, d) {
			t.Errorf("local %s differs beyond its value:\nproxied %v\ndirect  %v", name, p, d)
		}
	}
	if len(want) > 0 {
		t.Errorf("no smart value for %v", want)
	}
	if r := smart.hoverSales["result"]; r != "Array 500 × 4 · 145 null cells in price, city" || smart.hoverSales["type"] != "Array" {
		t.Errorf("hover on rows: %v", smart.hoverSales)
	}
	if !reflect.DeepEqual(without(smart.replSale, "variablesReference"), without(direct.replSale, "variablesReference")) {
		t.Errorf("repl evaluate must be untouched:\nproxied %v\ndirect  %v", smart.replSale, direct.replSale)
	}
	if !reflect.DeepEqual(without(smart.hoverNum, "variablesReference"), without(direct.hoverNum, "variablesReference")) {
		t.Errorf("hover on a number must be untouched: %v vs %v", smart.hoverNum, direct.hoverNum)
	}

	// "smartValues": false, and a summary that cannot finish within its
	// budget (1 ns): the adapter's values.
	for _, run := range []struct {
		name   string
		budget time.Duration
		extra  map[string]any
	}{{"off", 20 * time.Second, map[string]any{"smartValues": false}}, {"over budget", time.Nanosecond, nil}} {
		v := proxiedJSView(t, program, run.budget, run.extra)
		for i, d := range direct.locals {
			if v.locals[i]["value"] != d["value"] {
				t.Errorf("%s: %s = %q, want the adapter's %q", run.name, d["name"], v.locals[i]["value"], d["value"])
			}
		}
		if v.hoverSales["result"] != direct.hoverSales["result"] {
			t.Errorf("%s: hover rewritten: %v", run.name, v.hoverSales["result"])
		}
	}
}
