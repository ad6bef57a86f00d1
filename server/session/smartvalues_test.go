// smartvalues_test.go: smart values in the editor's own views against real
// debugpy. A scripted editor reads the locals and hovers through the proxy
// and directly; the proxied responses carry dapscope's summaries for the
// DataFrames, the Series and the array, and every other field equals the
// direct run; repl evaluates and "smartValues": false are untouched.

package session

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// smartView is what the editor saw of the paused frame.
type smartView struct {
	locals               []map[string]any // variables of the Locals scope
	hoverSales, replSale map[string]any   // evaluate bodies
	hoverNum             map[string]any
}

// readFrame: after the stop, the Variables view and a few hovers.
//
//	→ initialize, launch, setBreakpoints(BREAK), configurationDone ← stopped
//	→ stackTrace ← frames   → scopes ← Locals   → variables ← locals
//	→ evaluate sales (hover), sales (repl), v3 (hover) ← results
//	→ disconnect
func readFrame(t *testing.T, ed *daptest.Client, program string, extra map[string]any) smartView {
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	config := daptest.PythonLaunch(program)
	maps.Copy(config, extra)
	_, frame := ed.LaunchToFrame(config, program, breakLineOf(t, program))
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
	v.hoverSales, v.replSale, v.hoverNum = ev("sales", "hover"), ev("sales", "repl"), ev("v3", "hover")
	ed.Disconnect(true)
	return v
}

func breakLineOf(t *testing.T, program string) int {
	t.Helper()
	src, err := readLines(program)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range src {
		if strings.Contains(l, "# BREAK") {
			return i + 1
		}
	}
	t.Fatalf("no BREAK line in %s", program)
	return 0
}

func proxiedView(t *testing.T, program string, extra map[string]any) smartView {
	// A generous budget: this test checks the content; the fallback past the
	// budget is TestSmartValuesOverBudget's.
	m := newTestManager(t, ManagerOptions{SmartValuesBudget: 20 * time.Second})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	v := readFrame(t, ed, program, extra)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	if f := ed.Foreign(); len(f) > 0 {
		t.Fatalf("foreign responses: %v", f)
	}
	return v
}

func TestSmartValuesInEditorViews(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "python", "smart_values.py")
	ad, err := adapter.StartDebugpy(testCtx(t), adapter.DebugpyConfig{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	directEd := daptest.New(t, ad.Conn())
	direct := readFrame(t, directEd, program, nil)
	directEd.Close()
	_ = ad.Close()

	smart := proxiedView(t, program, nil)
	want := map[string]string{
		"sales":  "DataFrame 500 × 3 · 125 nulls in price · ",
		"stock":  "DataFrame 3 × 2 · ",
		"empty":  "DataFrame 0 × 0",
		"prices": "Series float64 (500,) · 125 nulls · min 3 max 10.5",
		"temps":  "ndarray float64 (1,000,) · 20 NaN · min 7.836 max 31.66",
	}
	if len(smart.locals) != len(direct.locals) || len(smart.locals) < 25 {
		t.Fatalf("locals: %d proxied, %d direct", len(smart.locals), len(direct.locals))
	}
	for i, d := range direct.locals {
		p := smart.locals[i]
		name := d["name"].(string)
		if w, ok := want[name]; ok {
			if got := p["value"].(string); !strings.HasPrefix(got, w) {
				t.Errorf("%s: value %.80q…, want prefix %q (adapter's: %.60q…)", name, got, w, d["value"])
			}
			delete(want, name)
			// Every other field is the adapter's.
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
	// VS Code's debug hover shows the summary; repl and plain values pass.
	if r := smart.hoverSales["result"].(string); !strings.HasPrefix(r, "DataFrame 500 × 3") || smart.hoverSales["type"] != "DataFrame" {
		t.Errorf("hover on sales: %v", smart.hoverSales)
	}
	if !reflect.DeepEqual(without(smart.replSale, "variablesReference"), without(direct.replSale, "variablesReference")) {
		t.Errorf("repl evaluate must be untouched:\nproxied %v\ndirect  %v", smart.replSale, direct.replSale)
	}
	if !reflect.DeepEqual(without(smart.hoverNum, "variablesReference"), without(direct.hoverNum, "variablesReference")) {
		t.Errorf("hover on an int must be untouched: %v vs %v", smart.hoverNum, direct.hoverNum)
	}

	// "smartValues": false in the launch configuration: the adapter's values.
	off := proxiedView(t, program, map[string]any{"smartValues": false})
	for i, d := range direct.locals {
		if off.locals[i]["value"] != d["value"] {
			t.Errorf("smartValues off: %s = %q, want the adapter's %q", d["name"], off.locals[i]["value"], d["value"])
		}
	}
	if off.hoverSales["result"] != direct.hoverSales["result"] {
		t.Errorf("smartValues off: hover rewritten: %v", off.hoverSales["result"])
	}
}

func without(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for _, k := range keys {
		delete(out, k)
	}
	b, _ := json.Marshal(out)
	var norm map[string]any
	_ = json.Unmarshal(b, &norm)
	return norm
}

func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	return strings.Split(string(b), "\n"), err
}

// TestSmartValuesOverBudget: a summary that cannot finish within the
// budget leaves the adapter's response as it was (here the budget is 1 ns).
func TestSmartValuesOverBudget(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "python", "smart_values.py")
	m := newTestManager(t, ManagerOptions{SmartValuesBudget: time.Nanosecond})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	v := readFrame(t, ed, program, nil)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	for _, l := range v.locals {
		if s, _ := l["value"].(string); strings.HasPrefix(s, "DataFrame ") || strings.HasPrefix(s, "ndarray ") || strings.HasPrefix(s, "Series ") {
			t.Errorf("%s was rewritten past the budget: %q", l["name"], s)
		}
	}
	if r, _ := v.hoverSales["result"].(string); !strings.Contains(r, "city  price") {
		t.Errorf("hover past the budget must be the adapter's repr, got %.80q", r)
	}
}
