// delve_test.go: the same tools on a Go program under Delve: launch with a
// breakpoint, the stop report, the stack, the smart inspector on a slice in
// a non-top frame (the DAP-variables fallback), and the outcome.

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDelveSession(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata/go/hello/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "return total") {
			line = i + 1
		}
	}
	a := stdioAgent(t)
	var stop StopReport
	a.call("debug_launch", map[string]any{"adapter": "dlv", "program": "testdata/go/hello",
		"breakpoints": []map[string]any{{"file": "testdata/go/hello/main.go", "line": line}}, "timeout": 120}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != line || !strings.HasSuffix(stop.Location.Function, "sum") || local(t, stop, "total") != "10" {
		t.Fatalf("delve stop = %+v / %+v", stop, stop.Locals)
	}
	var st StackResult
	a.call("debug_stack", nil, &st)
	if len(st.Frames) < 2 || !strings.HasSuffix(st.Frames[1].Name, "main") || !strings.Contains(st.Frames[0].Source, "return total") {
		t.Fatalf("stack = %+v", st.Frames)
	}
	var ins struct {
		DetectedType string `json:"detected_type"`
		Summary      string `json:"summary"`
	}
	a.call("debug_inspect_variable", map[string]any{"expression": "xs", "frame_id": st.Frames[1].ID}, &ins)
	if ins.DetectedType != "slice" || !strings.Contains(ins.Summary, "4") {
		t.Fatalf("inspect xs in main's frame = %+v", ins)
	}
	a.call("debug_continue", nil, &stop)
	if stop.Status != "completed" || stop.Outcome == nil || stop.Outcome.ExitCode == nil || *stop.Outcome.ExitCode != 0 {
		t.Fatalf("end = %+v", stop)
	}
	var out OutputResult
	a.call("debug_output", nil, &out)
	if !strings.Contains(out.Data, "10 2 p") {
		t.Fatalf("output = %q", out.Data)
	}
}
