// flood_test.go: a Node program floods stdout between stops while its
// session reads adapter events from a tiny buffer (issue 28.8): every stop
// and the end still arrive, and whatever output the session could not
// read is counted in its output pages (lost_events), never silently gone.

package session

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestOutputFloodKeepsStopsAndCountsLoss(t *testing.T) {
	m := newTestManager(t, ManagerOptions{EventBuffer: 2})
	ctx := testCtx(t)
	const prog, lines = "testdata/node/flood.js", 20000
	s, err := m.Launch(ctx, LaunchSpec{Program: prog, Args: []string{"20000"},
		Breakpoints: []Breakpoint{{File: prog, Line: markerLine(t, prog, "STOP")}}})
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		st := waitStop(t, s) // fails if the stop was dropped behind the flood
		ev, err := s.Evaluate(ctx, "round", st.Location.FrameID, "")
		if err != nil || ev.Result != string(rune('0'+round)) {
			t.Fatalf("stop %d: round = %+v, %v", round, ev, err)
		}
		if err := s.Continue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	if o := s.Outcome(); o == nil || o.Ended != EndedExited || o.ExitCode == nil || *o.ExitCode != 0 {
		t.Fatalf("outcome = %+v", o)
	}
	page, err := s.OutputOf("stdout", 0, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Count(page.Data, "\n")
	t.Logf("stdout: %d of %d lines captured, %d output events lost (%d bytes)", got, 3*lines+1, page.LostEvents, page.LostBytes)
	if got < 3*lines+1 && page.LostEvents == 0 {
		t.Errorf("%d of %d lines captured and no loss reported", got, 3*lines+1)
	}
	if page.LostEvents > 0 && page.LostBytes <= 0 {
		t.Errorf("lost %d events of 0 bytes", page.LostEvents)
	}
	_ = s.Terminate(context.Background())
}
