// lldb_proxy_test.go: an editor's lldb session of the Rust program through
// the sidecar's proxy (VS Code's `dapscope` type with adapter lldb): its
// launch names no formatters, the proxy adds the Rust toolchain's
// (EditLaunch), so Vec shows its elements; and the Variables view and a
// hover get the probe's one-line summary of the Vec<f64>.

package session

import (
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/nativetest"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestLLDBThroughEditorProxy(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.Rust)
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	addr, err := m.ListenEditor(testCtx(t), ProxySpec{Adapter: "lldb"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	ed := daptest.New(t, conn)
	// → initialize, launch (no initCommands), setBreakpoints, configurationDone ← stopped
	ed.Initialize(daptest.InitArgs("test-editor", "lldb-dap"))
	src := nativetest.Source(t, nativetest.Rust)
	_, frame := ed.LaunchToFrame(map[string]any{"type": "dapscope", "adapter": "lldb", "request": "launch", "program": bin},
		src, nativetest.Line(t, nativetest.Rust, "// break here"))
	// → scopes, variables ← prices summarised (a recognised value)
	ref := ed.Scopes(frame.Id)[0].VariablesReference
	var vars struct {
		Variables []struct {
			Name, Value, Type  string
			VariablesReference int
		} `json:"variables"`
	}
	var prices, name string
	var pricesRef int
	for range 50 { // the summary is the probe's, installed at the first stop
		if err := ed.Call("variables", map[string]any{"variablesReference": ref}).Unmarshal(&vars); err != nil {
			t.Fatal(err)
		}
		for _, v := range vars.Variables {
			switch v.Name {
			case "prices":
				prices, pricesRef = v.Value, v.VariablesReference
			case "name":
				name = v.Value
			}
		}
		if strings.HasPrefix(prices, "Vec<f64>") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(prices, "Vec<f64> float64 (1,000,)") || !strings.Contains(prices, "1 NaN") {
		t.Fatalf("prices in the Variables view: %q", prices)
	}
	if !strings.Contains(name, "ACME corp") {
		t.Errorf("name: %q", name)
	}
	// The formatters came from the proxy: the Vec's children are its elements.
	var kids struct {
		Variables []struct{ Name, Value string } `json:"variables"`
	}
	if err := ed.Call("variables", map[string]any{"variablesReference": pricesRef, "start": 0, "count": 3}).Unmarshal(&kids); err != nil {
		t.Fatal(err)
	}
	if len(kids.Variables) != 3 || kids.Variables[0].Name != "[0]" || kids.Variables[0].Value != "100" {
		t.Errorf("children of prices (Rust formatters loaded?): %+v", kids.Variables)
	}
	// → evaluate prices (hover) ← the summary
	if r := ed.Evaluate("prices", frame.Id, "hover"); !strings.Contains(r.Result, "Vec<f64> float64") {
		t.Errorf("hover prices: %+v", r)
	}
	ed.Disconnect(true)
	ed.Close()
}
