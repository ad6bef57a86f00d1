//go:build linux

// adapter_trace_test.go: a kernel session leaves no trace the user can
// see: attaching, listing the namespace, inspecting, paging and evaluating
// add no name, move no execution count, store nothing in In, Out or the
// history, and show the user's own notebook client (jupyter_client)
// nothing of ours but status messages. Two dapscope sidecars on one kernel
// work side by side and both follow the user's cells; attaching twice in
// one sidecar gives the same session.

package kernel

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
)

func TestKernelSessionLeavesNoTrace(t *testing.T) {
	k := startKernel(t)
	k.dial(t, Options{}) // waits for the kernel to listen
	u := startUserClient(t, k.file)
	if r := u.execute("import pandas as pd\ndf = pd.DataFrame({'price': [1.5, None, 3.0] * 100, 'city': ['a', 'b', None] * 100})\nseen = 1"); r.Reply.Status != "ok" {
		t.Fatalf("user cell: %+v", r)
	}
	u.foreign()
	before := takeSnapshot(t, u)
	_, at := kernelSession(t, k, AttachSpec{})
	s := at.Session
	ctx := testCtx(t, 60*time.Second)
	waitStop(t, s, 0)
	scopes, err := s.Scopes(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Variables(ctx, scopes[0].VariablesReference); err != nil {
		t.Fatal(err)
	}
	if _, err := inspect.Inspect(ctx, s, 0, "df", inspect.Options{}); err != nil {
		t.Fatal(err)
	}
	sel := inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Filter: "price > 1", Rows: &inspect.RowWindow{Limit: 5}}
	if pr, err := inspect.Browse(ctx, s, 0, "df", sel, inspect.Options{}); err != nil || pr.Page == nil || pr.Page.Total() != 200 {
		t.Fatalf("browse = %+v, %v", pr, err)
	}
	if v, err := s.Evaluate(ctx, "'dapscope-marker-' + str(len(df))", 0, ""); err != nil || v.Result != "'dapscope-marker-300'" {
		t.Fatalf("evaluate = %+v, %v", v, err)
	}
	seen := u.foreignUntil(at.Adapter.Client().Session(), 5)
	after := takeSnapshot(t, u)
	if tr := traces(before, after, "dapscope-marker"); len(tr) > 0 {
		t.Errorf("the kernel session left traces: %v", tr)
	}
	ours := 0
	for _, m := range seen {
		if m.ParentSession == at.Adapter.Client().Session() {
			ours++
			if m.MsgType != "status" {
				t.Errorf("the user's client saw our %s: %s", m.MsgType, m.Content)
			}
		}
	}
	if ours == 0 {
		t.Error("the user's client saw no status of ours: the check sees nothing")
	}
	if r := u.execute("print(seen + 1)"); r.Stdout() != "2\n" {
		t.Errorf("the user's cell after ours printed %q", r.Stdout())
	}
}

func TestTwoSidecarsOnOneKernel(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 120*time.Second)
	if _, err := user.Execute(ctx, "import numpy as np\narr = np.arange(12.0).reshape(3, 4)", ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	mgr1, a1 := kernelSession(t, k, AttachSpec{})
	_, a2 := kernelSession(t, k, AttachSpec{})
	again, err := AttachSession(ctx, mgr1, AttachSpec{Kernel: k.file, Options: Options{Logger: testLogger()}})
	if err != nil || !again.Reused || again.Session != a1.Session {
		t.Fatalf("attaching twice in one sidecar: %+v, %v; want the same session", again, err)
	}
	waitStop(t, a1.Session, 0)
	waitStop(t, a2.Session, 0)
	// Both inspect at once, many times.
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for _, at := range []*Attached{a1, a2} {
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := inspect.Inspect(ctx, at.Session, 0, "arr", inspect.Options{})
				if err == nil && res.DetectedType != "ndarray" {
					err = fmt.Errorf("detected %s", res.DetectedType)
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent inspect from two sidecars: %v", err)
	}
	// Both follow the user's cell.
	g1, g2 := a1.Session.StopCount(), a2.Session.StopCount()
	if _, err := user.Execute(ctx, "arr = arr * 2", ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		at  *Attached
		gen int
	}{{a1, g1}, {a2, g2}} {
		st := waitStop(t, w.at.Session, w.gen)
		if st.Location.Description != "after In[2]" {
			t.Errorf("stop = %+v", st.Location)
		}
		if v, err := w.at.Session.Evaluate(ctx, "arr[2, 3]", 0, ""); err != nil || !strings.HasPrefix(v.Result, "np.float64(22") && v.Result != "22.0" {
			t.Errorf("arr[2, 3] after the cell = %+v, %v", v, err)
		}
	}
}
