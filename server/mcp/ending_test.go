// ending_test.go: one unambiguous "how the run ended" across debug_outcome,
// debug_sessions and stop reports (issue 26.7), against real debugpy and
// node: a program killed by SIGKILL reads "killed by SIGKILL" in the text,
// never "completed, exit code 137" (issue 28); a terminated one reads
// "terminated" without the kill's exit code, and a process it started
// with detached: true / start_new_session that outlives debug_terminate
// is named in the outcome (issue 28).

package mcp

import (
	"os"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/session"
)

var endingPrograms = []struct{ lang, program string }{
	{"python", "testdata/mcp/ending.py"},
	{"node", "testdata/node/ending.js"},
}

func TestKilledOutcomeNamesTheSignal(t *testing.T) {
	t.Parallel()
	for _, p := range endingPrograms {
		t.Run(p.lang, func(t *testing.T) {
			a, _ := newHTTPAgent(t, Options{})
			var stop StopReport
			r := a.call("debug_launch", map[string]any{"program": p.program, "args": []string{"kill"}}, &stop)
			if stop.Status != session.StatusError || stop.Outcome == nil || stop.Outcome.Ended != session.EndedKilled || stop.Outcome.SignalName != "SIGKILL" {
				t.Fatalf("launch of a self-killing program = %+v outcome %+v", stop, stop.Outcome)
			}
			for name, text := range map[string]string{
				"stop report": textOf(r),
				"outcome":     textOf(a.call("debug_outcome", nil, nil)),
				"sessions":    textOf(a.call("debug_sessions", nil, nil)),
			} {
				if !strings.Contains(text, "killed") || strings.Contains(text, "completed") || strings.Contains(text, "exit code") {
					t.Errorf("%s text must say killed, without completed or an exit code:\n%s", name, text)
				}
			}
			var oc OutcomeResult
			a.call("debug_outcome", nil, &oc)
			if !strings.Contains(outcomeLine(oc.Outcome), "killed by SIGKILL (signal 9)") {
				t.Errorf("outcome line %q", outcomeLine(oc.Outcome))
			}
			var ss SessionsResult
			a.call("debug_sessions", nil, &ss)
			if len(ss.Sessions) != 1 || ss.Sessions[0].Ended != session.EndedKilled {
				t.Errorf("debug_sessions = %+v", ss.Sessions)
			}
		})
	}
}

func TestTerminateNamesDetachedSurvivors(t *testing.T) {
	t.Parallel()
	for _, p := range endingPrograms {
		t.Run(p.lang, func(t *testing.T) {
			a, _ := newHTTPAgent(t, Options{})
			stop := launchTo(t, a, p.program, p.program, "STOP", map[string]any{"args": []string{"detach"}})
			if stop.Status != session.StatusPaused {
				t.Fatalf("stop = %+v", stop)
			}
			var ev EvaluateResult
			child := map[string]string{"python": "child.pid", "node": "child.pid"}[p.lang]
			a.call("debug_evaluate", map[string]any{"expression": child}, &ev)
			pid := atoiOr(ev.Result, 0)
			if pid <= 0 {
				t.Fatalf("child pid = %q", ev.Result)
			}
			t.Cleanup(func() {
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			})

			var tr TerminateResult
			r := a.call("debug_terminate", nil, &tr)
			o := tr.Outcome
			if o == nil || o.Ended != session.EndedTerminated || o.ExitCode != nil || len(o.Survivors) != 1 || o.Survivors[0].PID != pid || o.Survivors[0].Command != "sleep" {
				t.Fatalf("terminate outcome = %+v", o)
			}
			text := textOf(r)
			if !strings.Contains(text, "terminated by the user") || !strings.Contains(text, "still running: pid "+ev.Result+" (sleep)") || strings.Contains(text, "completed") {
				t.Errorf("terminate text:\n%s", text)
			}
			if out := textOf(a.call("debug_outcome", nil, nil)); !strings.Contains(out, "still running: pid "+ev.Result) {
				t.Errorf("debug_outcome text:\n%s", out)
			}
			var ss SessionsResult
			a.call("debug_sessions", nil, &ss)
			if len(ss.Sessions) != 1 || ss.Sessions[0].Ended != session.EndedTerminated || ss.Sessions[0].Status != session.StatusTerminated {
				t.Errorf("debug_sessions = %+v", ss.Sessions)
			}
		})
	}
}

func atoiOr(s string, def int) int {
	n := 0
	for _, c := range strings.TrimSpace(s) {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}
