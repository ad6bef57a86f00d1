// frames_test.go: frame ids for agents (issue 26.6), against real
// debugpy, node and Delve: every debug_stack of a stop hands out the same
// id for the same frame (Delve and the Node adapter number frames anew on
// each stackTrace), the stop report's frame is debug_stack's top frame, and
// an id that is not a frame of the stop is FRAME_NOT_FOUND with a hint
// that says how to get valid ids, never an expression error.

package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestFrameIDsStableForTheStop(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, program, file, marker, adapter string }{
		{"python", "testdata/core/loop.py", "testdata/core/loop.py", "line 14", ""},
		{"node", "testdata/node/agent.js", "testdata/node/agent.js", "@call", ""},
		{"go", "testdata/go/hello", "testdata/go/hello/main.go", "line 16", "dlv"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			a, _ := newHTTPAgent(t, Options{})
			var extra map[string]any
			if tc.adapter != "" {
				extra = map[string]any{"adapter": tc.adapter}
			}
			stop := launchTo(t, a, tc.program, tc.file, tc.marker, extra)
			if stop.Location == nil {
				t.Fatalf("no stop: %+v", stop)
			}
			var first []int
			for i := 0; i < 3; i++ {
				var st StackResult
				a.call("debug_stack", nil, &st)
				ids := make([]int, len(st.Frames))
				for j, f := range st.Frames {
					ids[j] = f.ID
				}
				if len(ids) < 2 {
					t.Fatalf("stack = %+v", st)
				}
				if i == 0 {
					first = ids
					if ids[0] != stop.Location.FrameID {
						t.Errorf("stop report frame %d, debug_stack's top frame %d", stop.Location.FrameID, ids[0])
					}
					continue
				}
				if !slicesEqual(ids, first) {
					t.Errorf("debug_stack #%d handed out %v, the first one %v", i+1, ids, first)
				}
			}
			// An outer frame's id still evaluates there.
			a.call("debug_evaluate", map[string]any{"expression": "1 + 1", "frame_id": first[1]}, nil)
			for _, call := range []struct {
				tool string
				args map[string]any
			}{
				{"debug_evaluate", map[string]any{"expression": "1 + 1", "frame_id": 987654}},
				{"debug_scopes", map[string]any{"frame_id": 987654}},
				{"debug_inspect_variable", map[string]any{"expression": "x", "frame_id": 987654}},
			} {
				if tc.lang == "go" && call.tool == "debug_inspect_variable" {
					continue // Delve's inspections read variables: no frame id in a probe call
				}
				e := a.fail(call.tool, call.args)
				if e.Code != errcode.FrameNotFound || !strings.Contains(e.Message, "987654") || !strings.Contains(e.Hint, "debug_stack") {
					t.Errorf("%s with an unknown frame = %+v, want FRAME_NOT_FOUND naming it and debug_stack", call.tool, e)
				}
			}
		})
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A stop report's locals are its own stop's. Frame ids are per stop (Delve
// numbers every stop's top frame alike), so the capture taken at an
// earlier stop, with the same frame id, is never the fallback of a later
// stop whose locals cannot be read: the report says they are missing. The
// capture of the stop itself still is.
func TestStopReportLocalsAreTheStops(t *testing.T) {
	t.Parallel()
	a, srv := newHTTPAgent(t, Options{})
	const file = "testdata/go/hello/main.go"
	loop := lineWith(t, file, "total += x")
	var first, second StopReport
	a.call("debug_launch", map[string]any{"adapter": "dlv", "program": "testdata/go/hello",
		"breakpoints": []map[string]any{{"file": file, "line": loop}}, "timeout": 120}, &first)
	if first.Location == nil || local(t, first, "total") != "0" {
		t.Fatalf("first stop = %+v", first)
	}
	a.call("debug_continue", nil, &second)
	if second.Location == nil || local(t, second, "total") != "1" {
		t.Fatalf("second stop = %+v", second)
	}
	if first.Location.FrameID != second.Location.FrameID {
		t.Fatalf("Delve gave the top frames ids %d and %d: this test needs an id that two stops share", first.Location.FrameID, second.Location.FrameID)
	}
	sess, err := srv.session(second.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sess.Wait(testCtx(t), time.Minute)
	if err != nil || st.Location == nil {
		t.Fatalf("wait = %+v, %v", st, err)
	}
	state := srv.state(sess.ID())
	state.mu.Lock()
	earlier, own := state.prevStop, state.lastStop
	if earlier == nil || own == nil || own.gen != st.Gen || earlier.gen == st.Gen || state.refreshedGen != st.Gen {
		state.mu.Unlock()
		t.Fatalf("captures: earlier %+v, last %+v, refreshed at %d, stop %d", earlier, own, state.refreshedGen, st.Gen)
	}
	state.lastStop = earlier // as if the capture at this stop had failed
	state.mu.Unlock()
	// The locals cannot be read (the call's context is done).
	done, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := srv.stopReport(done, sess, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Locals) > 0 || !slices.ContainsFunc(r.Missing, func(m string) bool { return strings.HasPrefix(m, "locals: ") }) {
		t.Errorf("report of stop %d with the earlier stop's capture: locals %+v, missing %q; want none, and missing locals", st.Gen, r.Locals, r.Missing)
	}
	state.mu.Lock()
	state.lastStop = own
	state.mu.Unlock()
	if r, err = srv.stopReport(done, sess, st); err != nil || local(t, StopReport{Locals: r.Locals}, "total") != "1" {
		t.Errorf("report of stop %d with its own capture: %+v, %v", st.Gen, r, err)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
