// workers_test.go: worker threads as DAP threads (real node): a worker is
// announced as a thread, a breakpoint in its code stops it (the stop names
// its thread, the main thread goes on), its stack, scopes and evaluations
// are its own, and its end is reported.

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
		})
	}
}
