// workers_test.go: worker threads as DAP threads (real node): a worker is
// announced as a thread, a breakpoint in its code stops it (the stop names
// its thread, the main thread goes on), its stack, scopes and evaluations
// are its own, and its end is reported; two threads paused at once.

package node

import (
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestWorkerThreads(t *testing.T) {
	for _, node := range []string{"node", "24"} {
		t.Run("node "+node, func(t *testing.T) {
			if node == "24" {
				node = node24(t)
			}
			c := start(t, Options{Node: node, Logger: testLogger()})
			prog := program(t, "workers.js")
			work, answer := line(t, prog, "work"), line(t, prog, "answer")
			launch := c.StartLaunch(launchConfig(prog))
			c.Event("initialized")
			c.SetBreakpoints(prog, work, answer)
			c.ConfigurationDone()
			c.OK(launch)
			// ← thread (started) → the worker stops at @work on its thread
			started := daptest.ExpectEvent[*godap.ThreadEvent](c)
			worker := started.Body.ThreadId
			if started.Body.Reason != "started" || worker == ThreadID {
				t.Fatalf("thread event = %+v", started.Body)
			}
			st := c.Stopped()
			if st.Body.ThreadId != worker || st.Body.Reason != "breakpoint" || !strings.Contains(st.Body.Description, "worker") {
				t.Fatalf("stop = %+v, want the worker's thread %d", st.Body, worker)
			}
			threads := c.Threads()
			if len(threads) != 2 || threads[0].Name != "main" || !strings.HasPrefix(threads[1].Name, "worker") {
				t.Errorf("threads = %+v", threads)
			}
			top := c.TopFrame(worker)
			if top.Name != "work" || top.Line != work || top.Source.Path != prog {
				t.Fatalf("worker's top = %+v", top)
			}
			// Evaluation and variables run in the worker's own frames.
			if r := c.Evaluate("n + ':' + where", top.Id, "watch"); r.Result != "'20:worker'" {
				t.Errorf("in the worker: %q", r.Result)
			}
			// Node mangles a Latin-1 character in a message to a worker, which
			// then never answers: the adapter sends it escaped.
			if r := c.Evaluate("'é±😀'.length", top.Id, "watch"); r.Result != "4" {
				t.Errorf("'é±😀'.length in the worker = %q", r.Result)
			}
			locals := varsByName(c.Variables(c.Scopes(top.Id)[0].VariablesReference))
			if locals["n"].Value != "20" {
				t.Errorf("worker locals = %+v", locals)
			}
			// The main thread is not paused: it has no stack.
			if m := c.Response(c.Send("stackTrace", godap.StackTraceArguments{ThreadId: ThreadID})); m.Success() {
				t.Errorf("main thread's stack while only the worker is paused: %s", m)
			}
			// → continue the worker ← the main thread stops at @answer
			c.Continue(worker)
			st = c.Stopped()
			if st.Body.ThreadId != ThreadID || c.TopFrame(ThreadID).Line != answer {
				t.Fatalf("second stop = %+v", st.Body)
			}
			if r := c.Evaluate("answer + ':' + where", c.TopFrame(ThreadID).Id, "watch"); r.Result != "'41:main'" {
				t.Errorf("answer = %q", r.Result)
			}
			c.Continue(ThreadID)
			// ← thread (exited) for the worker, and a notice
			ended := c.Expect("the worker's thread exited", func(m daptest.Msg) bool {
				ev, ok := m.Decoded.(*godap.ThreadEvent)
				return ok && ev.Body.Reason == "exited" && ev.Body.ThreadId == worker
			})
			_ = ended
			if code := waitEnd(t, c); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			if out := output(c, "stdout"); out != "worker answered 41\nworker exited 0\n" {
				t.Errorf("stdout = %q", out)
			}
			if notes := output(c, "important"); !strings.Contains(notes, "(thread 2) ended") {
				t.Errorf("no notice of the worker's end: %q", notes)
			}
			// The main thread stopped once: its stop was announced after the
			// worker's continued event, so neither the continue nor the
			// worker's end announces it again (a second stopped event moves
			// a one-stop client to a new stop: its frame ids are refused).
			if bad := repeatedStops(c.Transcript()); len(bad) > 0 {
				t.Errorf("stops announced again with no continued event between: %s", strings.Join(bad, "\n"))
			}
		})
	}
}

// Two threads paused at once: continuing one announces the other again
// ("still paused"), for clients that track one stop and read the continued
// event as "nothing is paused"; its frames are still there. Which thread
// stops first is node's choice: the test follows either order.
func TestWorkerThreadsPausedAtOnce(t *testing.T) {
	c := start(t, Options{Logger: testLogger()})
	prog := program(t, "workers_paused.js")
	lines := map[string]int{"main": line(t, prog, "main"), "worker": line(t, prog, "worker")}
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	c.SetBreakpoints(prog, lines["main"], lines["worker"])
	c.ConfigurationDone()
	c.OK(launch)
	first, second := c.Stopped(), c.Stopped()
	if first.Body.ThreadId == second.Body.ThreadId {
		t.Fatalf("stops = %+v, %+v: want one per thread", first.Body, second.Body)
	}
	lineOf := func(thread int) int {
		if thread == ThreadID {
			return lines["main"]
		}
		return lines["worker"]
	}
	// → continue the thread that stopped last ← the other one is still paused
	c.Continue(second.Body.ThreadId)
	again := c.Stopped()
	if again.Body.ThreadId != first.Body.ThreadId || again.Body.Reason != "breakpoint" || !again.Body.PreserveFocusHint ||
		!strings.HasPrefix(again.Body.Description, "still paused") {
		t.Fatalf("after continuing thread %d: %+v, want thread %d still paused", second.Body.ThreadId, again.Body, first.Body.ThreadId)
	}
	if top := c.TopFrame(first.Body.ThreadId); top.Line != lineOf(first.Body.ThreadId) {
		t.Errorf("the thread still paused is at %+v, want line %d", top, lineOf(first.Body.ThreadId))
	}
	c.Continue(first.Body.ThreadId)
	if code := waitEnd(t, c); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if out := output(c, "stdout"); !strings.Contains(out, "main got stopping") || !strings.Contains(out, "worker goes on") {
		t.Errorf("stdout = %q", out)
	}
	if n := c.Count(func(m daptest.Msg) bool { return m.IsEvent("stopped") }); n != 3 {
		t.Errorf("%d stopped events, want 3 (each thread's stop, one still paused)", n)
	}
	if bad := repeatedStops(c.Transcript()); len(bad) > 0 {
		t.Errorf("stops announced again with no continued event between: %s", strings.Join(bad, "\n"))
	}
}

// repeatedStops are the stopped events of a transcript that tell of a
// thread already shown stopped: no continued event came since its last
// stopped event. A continued event, of any thread, reads as "nothing is
// paused" to a client that tracks one stop (dapscope's mux and sessions).
func repeatedStops(ms []daptest.Msg) []string {
	shown := map[int]bool{}
	var out []string
	for _, m := range ms {
		switch ev := m.Decoded.(type) {
		case *godap.ContinuedEvent:
			clear(shown)
		case *godap.StoppedEvent:
			if shown[ev.Body.ThreadId] {
				out = append(out, string(m.Raw))
			}
			shown[ev.Body.ThreadId] = true
		}
	}
	return out
}
