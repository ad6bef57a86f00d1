// smartvalues_edit_test.go: "changed since the last stop" in the editor's
// Variables view follows the values' fingerprints, against real debugpy:
// a DataFrame written in place (the same summary) reads "changed in
// place" at the next stop, the same text while it stays so, "×2" after a
// second write; a DataFrame left alone keeps its text at every stop.

package session

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestSmartValuesMarkInPlaceChanges(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "python", "smart_values_edit.py")
	m := newTestManager(t, ManagerOptions{SmartValuesBudget: 20 * time.Second})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	stopped, frame := ed.LaunchToFrame(daptest.PythonLaunch(program), program, breakLineOf(t, program))
	values := func(frameID int) map[string]string {
		out := map[string]string{}
		for _, v := range ed.Variables(ed.Scopes(frameID)[0].VariablesReference) {
			out[v.Name] = v.Value
		}
		return out
	}
	var seen []map[string]string
	for stop := 0; ; stop++ {
		seen = append(seen, values(frame.Id))
		if stop == 3 {
			break
		}
		ed.Continue(stopped.Body.ThreadId)
		stopped = ed.Stopped()
		frame = ed.TopFrame(stopped.Body.ThreadId)
	}
	ed.Disconnect(true)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	first := seen[0]["prices"]
	want := []string{first, first + " · changed in place", first + " · changed in place", first + " · changed in place ×2"}
	for i, v := range seen {
		if v["prices"] != want[i] {
			t.Errorf("stop %d: prices %q, want %q", i+1, v["prices"], want[i])
		}
		if v["stock"] != seen[0]["stock"] || v["stock"] == "" {
			t.Errorf("stop %d: stock %q, first %q (unchanged)", i+1, v["stock"], seen[0]["stock"])
		}
	}
	if len(first) < 15 || first[:15] != "DataFrame 1,000" {
		t.Errorf("prices is no smart value: %q", first)
	}
}
