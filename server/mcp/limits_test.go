// limits_test.go: the response bounds (a variables tree of ~800 KB, a
// 300 KB string, a 1000-column DataFrame) with its truncation object, and
// the memory budget for snapshots (new captures fail clearly, stored ones
// are kept, deleting frees room).

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

const bigPy = "testdata/mcp/big.py"

func TestLimits(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{MemoryBudget: 200 << 10})
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": bigPy, "breakpoints": []map[string]any{{"file": bigPy, "line": 12}}}, &stop)
	if stop.Status != "paused" || stop.Location.Line != 12 {
		t.Fatalf("launch = %+v", stop)
	}
	const capBytes = 100 * 1024

	t.Run("cap", func(t *testing.T) {
		var vars VariablesResult
		a.call("debug_variables", map[string]any{"names": []string{"blobs"}}, &vars)
		ref := vars.Variables[0].VariablesReference
		if ref == 0 {
			t.Fatalf("blobs has no reference: %+v", vars)
		}
		// The tree's own byte budget (12 KB of names, types and values) cuts
		// it long before the 100 KB cap, and says how to get the rest.
		r := a.call("debug_variables", map[string]any{"variables_reference": ref, "depth": 2}, nil)
		var big VariablesResult
		decodeStructured(t, r, &big)
		n := responseBytes(t, r)
		if n > 32<<10 || len(big.Notes) == 0 || !strings.Contains(big.Notes[len(big.Notes)-1], "cut at 12 KB") {
			t.Fatalf("variables depth 2: %d bytes, notes %q", n, big.Notes)
		}
		if len(big.Variables) == 0 || len(big.Variables[0].Children) == 0 || !strings.Contains(textOf(r), "note: cut at 12 KB") {
			t.Fatalf("cut tree lost its head: %d vars; text %q", len(big.Variables), textOf(r)[:200])
		}
		t.Logf("variables tree: %d bytes", n)

		r = a.call("debug_evaluate", map[string]any{"expression": "text"}, nil)
		if n := responseBytes(t, r); n > capBytes {
			t.Fatalf("evaluate of a 300 KB string: %d bytes", n)
		}
		r = a.call("debug_inspect_variable", map[string]any{"expression": "wide", "max_preview_rows": 100, "max_bytes": 100 << 10}, nil)
		var ins struct {
			DetectedType string `json:"detected_type"`
			Structure    struct {
				Shape []int `json:"shape"`
			} `json:"structure"`
		}
		decodeStructured(t, r, &ins)
		if n := responseBytes(t, r); n > capBytes || ins.DetectedType != "dataframe" || len(ins.Structure.Shape) != 2 || ins.Structure.Shape[1] != 1000 {
			t.Fatalf("1000-column inspect: %d bytes, %+v", n, ins)
		}
	})

	t.Run("budget", func(t *testing.T) {
		var ok []string
		var failure errcode.Error
		for i := 0; i < 20 && failure.Code == ""; i++ {
			r := a.raw("debug_snapshot", map[string]any{"inspect": []string{"wide"}})
			if r.IsError {
				var e struct {
					Error errcode.Error `json:"error"`
				}
				decodeStructured(t, r, &e)
				failure = e.Error
				continue
			}
			var sr SnapshotResult
			decodeStructured(t, r, &sr)
			if sr.StoredBytes > sr.BudgetBytes {
				t.Fatalf("stored %d over the budget %d", sr.StoredBytes, sr.BudgetBytes)
			}
			ok = append(ok, sr.Snapshot.ID)
		}
		if len(ok) == 0 || failure.Code != errcode.LimitExceeded || !strings.Contains(failure.Message, "memory budget exceeded") || !strings.Contains(failure.Message, "delete") {
			t.Fatalf("%d snapshots, then %+v", len(ok), failure)
		}
		var list SnapshotResult
		a.call("debug_snapshot", map[string]any{"action": "list"}, &list)
		if len(list.Snapshots) != len(ok) {
			t.Fatalf("kept %d snapshots, want %d", len(list.Snapshots), len(ok))
		}
		a.call("debug_snapshot", map[string]any{"action": "delete", "id": ok[0]}, nil)
		var sr SnapshotResult
		a.call("debug_snapshot", map[string]any{"inspect": []string{"wide"}}, &sr)
		var d DiffResult
		a.call("debug_diff", map[string]any{"from": ok[len(ok)-1], "to": sr.Snapshot.ID}, &d)
		if len(d.Changed)+len(d.Added)+len(d.Removed) != 0 || len(d.Inspections) != 1 || len(d.Inspections[0].Changes) != 0 {
			t.Fatalf("diff of two captures of the same stop = %+v", d)
		}
	})
	a.call("debug_terminate", nil, nil)
}
