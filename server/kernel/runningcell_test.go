//go:build linux

// runningcell_test.go: a fresh attach to a kernel busy with a cell that
// another client started (as a new `dapscope kernel …` call does) knows
// the cell's code and number from the kernel's input history, instead of
// "a cell (its code is unknown)".

package kernel

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sleepCell = "import time\ntime.sleep(30)  # the user's long cell"

// waitBusy waits until c sees a user's cell running.
func waitBusy(t *testing.T, ctx context.Context, c *Client) {
	t.Helper()
	for c.State().Execution != StateBusy {
		select {
		case <-ctx.Done():
			t.Fatal("the cell never ran")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestFreshAttachKnowsTheRunningCell(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 90*time.Second)
	if _, err := userExecute(ctx, user, "x = 1"); err != nil {
		t.Fatal(err)
	}
	observer := k.dial(t, Options{})
	go func() { _, _ = user.Execute(ctx, sleepCell, ExecOptions{Visible: true}) }()
	waitBusy(t, ctx, observer)
	defer func() { _ = user.Interrupt(context.Background()) }()

	c := k.dial(t, Options{}) // the fresh attach
	st := c.State()
	if st.Execution != StateBusy || st.Cell == nil || !st.Cell.Known || !st.Cell.FromHistory ||
		st.Cell.Code != sleepCell || st.Cell.ExecutionCount != 2 {
		t.Fatalf("fresh attach: state %s, cell %+v; want busy with In[2], its code from the history", st.Execution, st.Cell)
	}
	_, err := c.EvaluateRepr(ctx, "x", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) || !strings.Contains(be.Summary(), "cell [2] (import time …)") ||
		!strings.Contains(be.Summary(), "its code is the kernel's latest input") {
		t.Errorf("busy answer: %v", err)
	}
}

// A fresh attach through a Jupyter Server to a kernel busy with a cell
// that began before it: the cell is dated by the server's kernel model
// (last_activity, read before the websocket opens), not by the attach; a
// fresh ZeroMQ attach to the same kernel, side by side, can only say
// "when dapscope attached".
func TestFreshServerAttachDatesTheRunningCell(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "nb.ipynb")
	srv := js.client(t)
	ctx := testCtx(t, 120*time.Second)
	connFile := filepath.Join(js.dir, ".runtime", "kernel-"+id+".json")
	// The notebook's frontend, connected before the cell as JupyterLab is:
	// the server makes a kernel's first websocket wait for the shell's
	// kernel_info reply, queued behind a running cell; later ones do not.
	_ = dialServer(t, srv, id)
	u := startUserClient(t, connFile)
	u.execute("x = 1")
	u.submit(sleepCell) // the user's cell: busy, execute_input, then silence

	// The server's model once the cell runs and its last IOPub message is in.
	var l0 time.Time
	for prev := (time.Time{}); ; time.Sleep(100 * time.Millisecond) {
		k, err := srv.Kernel(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if k.ExecutionState == StateBusy && !k.LastActivity.IsZero() && k.LastActivity.Equal(prev) {
			l0 = k.LastActivity
			break
		}
		prev = k.LastActivity
		if ctx.Err() != nil {
			t.Fatal("the cell never ran")
		}
	}
	time.Sleep(time.Second) // the cell has run a while before anyone attaches

	c := dialServer(t, srv, id) // the fresh attach, as a new `dapscope kernel --server …` call
	defer func() { _ = c.Interrupt(context.Background()) }()
	st := c.State()
	if st.Execution != StateBusy || st.Cell == nil || !st.Cell.StartedBy.Equal(l0) || !st.Since.Equal(l0) {
		t.Fatalf("fresh server attach: state %s since %v, cell %+v; want busy since the server's last_activity %v", st.Execution, st.Since, st.Cell, l0)
	}
	if st.Cell.Code != sleepCell || !st.Cell.FromHistory {
		t.Errorf("the running cell's code: %+v", st.Cell)
	}
	_, err := c.EvaluateRepr(ctx, "x", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) {
		t.Fatalf("evaluate while the cell runs: %v", err)
	}
	want := "already running at " + l0.Local().Format("15:04:05") + ", the Jupyter Server's last_activity for the kernel"
	if s := be.Summary(); !strings.Contains(s, want) || be.For < time.Second {
		t.Errorf("busy answer %q (for %v); want %q and at least the second it ran before the attach", s, be.For, want)
	}

	// Side by side: a ZeroMQ attach has no server to ask.
	z, err := DialFile(ctx, connFile, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	_, err = z.EvaluateRepr(ctx, "x", CallOptions{})
	if !errors.As(err, &be) || !strings.Contains(be.Summary(), "already running when dapscope attached") || !be.Cell.StartedBy.IsZero() {
		t.Errorf("ZeroMQ attach: %v", err)
	}
}

// serverBusySince trusts a busy model whose clock agrees with ours.
func TestServerBusySince(t *testing.T) {
	read := time.Date(2026, 11, 28, 10, 0, 0, 500e6, time.UTC)
	la := read.Add(-5 * time.Second)
	busy := func(f func(*ServerKernel)) *ServerKernel {
		k := &ServerKernel{ExecutionState: "busy", LastActivity: la, Read: read, ServerDate: read.Truncate(time.Second)}
		if f != nil {
			f(k)
		}
		return k
	}
	cases := []struct {
		name string
		k    *ServerKernel
		want time.Time
	}{
		{"busy, same clock", busy(nil), la},
		{"no Date header", busy(func(k *ServerKernel) { k.ServerDate = time.Time{} }), la},
		{"idle", busy(func(k *ServerKernel) { k.ExecutionState = "idle" }), time.Time{}},
		{"no last_activity", busy(func(k *ServerKernel) { k.LastActivity = time.Time{} }), time.Time{}},
		{"server clock 3 s behind", busy(func(k *ServerKernel) { k.ServerDate = read.Add(-3 * time.Second) }), time.Time{}},
		{"server clock 3 s ahead", busy(func(k *ServerKernel) { k.ServerDate = read.Add(3 * time.Second) }), time.Time{}},
		{"last_activity after the read", busy(func(k *ServerKernel) { k.LastActivity = read.Add(time.Second) }), time.Time{}},
		{"nil", nil, time.Time{}},
	}
	for _, c := range cases {
		if got := serverBusySince(c.k); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	e := &BusyError{Cell: Cell{StartedBy: la}, For: 7 * time.Second}
	if s := e.Summary(); !strings.Contains(s, "has been running for 7s (at least: it was already running at "+la.Local().Format("15:04:05")+", the Jupyter Server's last_activity") {
		t.Errorf("summary %q", s)
	}
}
