// kernel_lazy_test.go: an MCP session attached to a real kernel reads
// nothing between the user's cells (lazy.go): five cells run and the
// kernel sees no request of dapscope's among them; the next debug_wait
// reads the namespace and the watch once, debug_diff with no ids compares
// the namespace as last read with now (naming both), and debug_watch list
// refreshes a watch after a later cell.

package mcp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
)

func TestKernelReadsLazily(t *testing.T) {
	k := kerneltest.Start(t, "lazykernel")
	k.Run(t, "x = 1")
	a, _ := newHTTPAgent(t, Options{Kernels: kernel.ListOptions{RuntimeDir: k.Dir, NoProcesses: true}})
	var at KernelAttachResult
	a.call("kernel_attach", map[string]any{"kernel": "lazykernel"}, &at)
	var w WatchResult
	a.call("debug_watch", map[string]any{"action": "add", "expression": "x * 10"}, &w)
	if len(w.Watches) != 1 || w.Watches[0].Value != "10" {
		t.Fatalf("the watch when added = %+v", w.Watches)
	}

	user := k.User(t)
	sub := user.Subscribe()
	defer sub.Close()
	ctx := testCtx(t)
	n := 0
	for range 5 {
		res, err := user.Execute(ctx, "x += 1", kernel.ExecOptions{Visible: true, CallOptions: kernel.CallOptions{Wait: time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		n = res.ExecutionCount
	}
	// Every IOPub status up to the fifth cell's idle: a request of anyone
	// but the user is dapscope's.
	var others []string
	for idle := 0; idle < 5; {
		e, err := sub.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind != kernel.EventMessage || e.Msg.Header.MsgType != "status" || e.Msg.Parent.MsgType != "execute_request" {
			continue
		}
		if !e.Ours && strings.Contains(string(e.Msg.Content), `"busy"`) { // (an idle may end what ran before)
			others = append(others, string(e.Msg.Content))
		} else if strings.Contains(string(e.Msg.Content), `"idle"`) {
			idle++
		}
	}
	if sub.Dropped() > 0 {
		t.Fatalf("the subscription dropped %d events", sub.Dropped())
	}
	if len(others) > 0 {
		t.Errorf("dapscope made the kernel busy %d times between the user's cells: %v", len(others), others)
	}

	// The next report reads the namespace and the watch, once.
	var st StopReport
	for !strings.HasPrefix(st.Description, fmt.Sprintf("after In[%d]", n)) {
		a.call("debug_wait", map[string]any{"timeout": 60}, &st)
	}
	if len(st.Watches) != 1 || st.Watches[0].Value != "60" || !st.Watches[0].Changed || st.Watches[0].Previous != "10" {
		t.Errorf("the watch after five cells = %+v", st.Watches)
	}
	// debug_diff with no ids: the namespace as last read (at attach) → now.
	var d DiffResult
	r := a.call("debug_diff", map[string]any{}, &d)
	if d.From != kernelDiffFrom || d.To != kernelDiffTo || !strings.Contains(d.FromLocation, "In[1]") ||
		!strings.Contains(d.ToLocation, fmt.Sprintf("In[%d]", n)) || len(d.Changed) != 1 || d.Changed[0].Before != "1" || d.Changed[0].After != "6" {
		t.Errorf("debug_diff after five cells = %+v\n%s", d, textOf(r))
	}
	// Asked again with no cell between: the same two ends.
	var again DiffResult
	a.call("debug_diff", map[string]any{}, &again)
	if len(again.Changed) != 1 || again.Changed[0].After != "6" {
		t.Errorf("debug_diff again = %+v", again)
	}
	// A later cell: debug_watch list refreshes the watch.
	if _, err := user.Execute(ctx, "x += 1", kernel.ExecOptions{Visible: true, CallOptions: kernel.CallOptions{Wait: time.Minute}}); err != nil {
		t.Fatal(err)
	}
	for {
		var ss SessionsResult
		a.call("debug_sessions", map[string]any{}, &ss)
		if s := ss.Sessions[0]; s.Stop != nil && strings.HasPrefix(s.Stop.Description, fmt.Sprintf("after In[%d]", n+1)) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	a.call("debug_watch", map[string]any{"action": "list"}, &w)
	if len(w.Watches) != 1 || w.Watches[0].Value != "70" || w.Watches[0].Previous != "60" {
		t.Errorf("debug_watch list after a cell = %+v", w.Watches)
	}
	// No capture yet: the diff reads now, from the last read.
	a.call("debug_diff", map[string]any{}, &d)
	if len(d.Changed) != 1 || d.Changed[0].Before != "6" || d.Changed[0].After != "7" {
		t.Errorf("debug_diff after one more cell = %+v", d)
	}
}
