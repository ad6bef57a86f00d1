//go:build linux

// busy_test.go: a user's cell that runs forever (busy at once, with the
// cell; a wait that ends with the cell; interrupt), a client that attaches
// while a cell runs (busy, cell unknown), a request that turns out queued
// behind a cell (withdrawn, never run), and two dapscope clients on one
// kernel.

package kernel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const foreverCell = "import time\nprint('looping', flush=True)\nwhile True:\n    time.sleep(0.05)\n"

// looping says whether e is the forever cell's first output: from then on
// an interrupt lands in its loop (one that lands while ipykernel is still
// starting the cell is lost in the kernel, which then never answers).
func looping(e Event) bool {
	return e.Kind == EventMessage && e.Msg.Header.MsgType == "stream" && strings.Contains(string(e.Msg.Content), "looping")
}

// waitEvent waits for the first event that ok accepts.
func waitEvent(t *testing.T, ctx context.Context, s *Subscription, what string, ok func(Event) bool) Event {
	t.Helper()
	for {
		e, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(e) {
			return e
		}
	}
}

// runForever starts the forever cell as a user's visible cell from client
// a; the returned channel gets its result once interrupted.
func runForever(ctx context.Context, a *Client) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := a.Execute(ctx, foreverCell, ExecOptions{Visible: true})
		done <- err
	}()
	return done
}

func TestCellThatRunsForever(t *testing.T) {
	k := startKernel(t)
	a := k.dial(t, Options{})
	b := k.dial(t, Options{})
	ctx := testCtx(t, 90*time.Second)
	sub := b.Subscribe()
	defer sub.Close()

	done := runForever(ctx, a)
	e := waitEvent(t, ctx, sub, "the cell to start", func(e Event) bool { return e.Kind == EventCellStarted })
	waitEvent(t, ctx, sub, "the cell to loop", looping)
	if e.Cell.Code != foreverCell || e.Cell.ExecutionCount != 1 || e.Cell.Session != a.Session() {
		t.Errorf("cell started = %+v", e.Cell)
	}
	_, err := b.Evaluate(ctx, "'x'", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) {
		t.Fatalf("Evaluate while a cell runs: %v, want *BusyError", err)
	}
	if !be.Cell.Known || be.Cell.Code != foreverCell || be.Cell.ExecutionCount != 1 || be.Queued {
		t.Errorf("BusyError = %+v", be)
	}
	if !strings.Contains(err.Error(), "cell [1] (import time …)") {
		t.Errorf("busy message %q does not name the cell", err)
	}
	if st := b.State(); st.Execution != StateBusy || st.Cell == nil || st.Cell.Code != foreverCell {
		t.Errorf("State while busy = %+v", st)
	}
	// A short wait ends busy too; the control channel still answers.
	if _, err := b.Evaluate(ctx, "'x'", CallOptions{Wait: 300 * time.Millisecond}); !errors.As(err, &be) {
		t.Errorf("Evaluate with a short wait: %v, want *BusyError", err)
	}
	if info, err := b.KernelInfo(ctx); err != nil || info.Language() != "python" {
		t.Errorf("KernelInfo while busy: %+v, %v", info, err)
	}
	// A long wait returns the value once the cell is interrupted.
	waited := make(chan string, 1)
	go func() {
		v, err := b.Evaluate(ctx, "'after'", CallOptions{Wait: time.Minute})
		waited <- fmt.Sprintf("%s %v", v, err)
	}()
	if err := b.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	var ee *EvalError
	if err := <-done; !errors.As(err, &ee) || ee.Name != "KeyboardInterrupt" {
		t.Errorf("the interrupted cell returned %v", err)
	}
	if got := <-waited; got != "after <nil>" {
		t.Errorf("Evaluate with a long wait = %s", got)
	}
	fin := waitEvent(t, ctx, sub, "the cell to finish", func(e Event) bool { return e.Kind == EventCellFinished })
	if fin.Cell.Code != foreverCell || !fin.Cell.Error || fin.Cell.Ended.IsZero() {
		t.Errorf("cell finished = %+v", fin.Cell)
	}
	if st := b.State(); st.Execution != StateIdle || st.LastCell == nil || st.LastCell.ExecutionCount != 1 {
		t.Errorf("State after = %+v", st)
	}
}

func TestAttachWhileACellRuns(t *testing.T) {
	k := startKernel(t)
	a := k.dial(t, Options{})
	ctx := testCtx(t, 90*time.Second)
	sub := a.Subscribe()
	defer sub.Close()
	ticking := "import time\nprint('looping', flush=True)\nwhile True:\n    time.sleep(0.1)\n    print('.', end='', flush=True)\n"
	done := make(chan error, 1)
	go func() {
		_, err := a.Execute(ctx, ticking, ExecOptions{Visible: true})
		done <- err
	}()
	waitEvent(t, ctx, sub, "the cell to loop", looping)

	c := k.dial(t, Options{})
	st := c.State()
	// Its code and number come from the kernel's input history.
	if st.Execution != StateBusy || st.Cell == nil || !st.Cell.FromHistory || strings.TrimSpace(st.Cell.Code) != strings.TrimSpace(ticking) || st.Cell.ExecutionCount != 1 {
		t.Fatalf("state of a client attached while a cell runs = %+v (cell %+v), want busy with In[1] from the history", st, st.Cell)
	}
	_, err := c.Evaluate(ctx, "'x'", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) || !be.Cell.FromHistory || !strings.Contains(err.Error(), "already running when dapscope attached") {
		t.Fatalf("Evaluate: %v, want busy with a cell that was already running", err)
	}
	// The cell's output names its request: who sent it, and when.
	csub := c.Subscribe()
	defer csub.Close()
	waitEvent(t, ctx, csub, "an output of the cell", func(e Event) bool { return e.Kind == EventMessage && e.Msg.Header.MsgType == "stream" })
	if st := c.State(); st.Cell == nil || !st.Cell.FromHistory || st.Cell.Session != a.Session() || st.Cell.Submitted.IsZero() {
		t.Errorf("state after an output of the unknown cell = %+v", st.Cell)
	}
	if err := c.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	if err := c.WaitIdle(ctx); err != nil {
		t.Fatalf("WaitIdle after the interrupt: %v", err)
	}
	if v, err := c.Evaluate(ctx, "'now'", CallOptions{}); err != nil || v != "now" {
		t.Errorf("Evaluate after the cell = %q, %v", v, err)
	}
}

func TestQueuedBehindACellIsWithdrawn(t *testing.T) {
	k := startKernel(t)
	// The main shell's queue: where the kernel has subshells, dapscope's
	// own silent calls queue behind no cell (subshell.go), so these two
	// clients are told to use the main shell, as on ipykernel 6.
	a := k.dial(t, Options{NoSubshell: true}) // waits for the kernel to listen
	u := startUserClient(t, k.file)
	b := k.dial(t, Options{NoSubshell: true})
	ctx := testCtx(t, 90*time.Second)
	sub := b.Subscribe()
	defer sub.Close()

	// Another client's silent request holds the shell (not a user's cell,
	// so b sends); the user's cell is queued behind it, and b's request
	// behind that. The request awaits (top-level await) rather than
	// sleeps, so the kernel's event loop goes on reading and queues what
	// arrives in the order it arrives.
	slow := make(chan error, 1)
	go func() {
		_, err := a.Execute(ctx, "import asyncio\nawait asyncio.sleep(3)", ExecOptions{})
		slow <- err
	}()
	waitEvent(t, ctx, sub, "a's silent request", func(e Event) bool {
		return e.Kind == EventMessage && e.Msg.Parent.Session == a.Session() && statusOf(e.Msg) == "busy"
	})
	cell := u.submit(foreverCell)
	time.Sleep(300 * time.Millisecond) // the cell reaches the kernel's queue first
	_, err := b.Evaluate(ctx, "__import__('builtins').__dict__.setdefault('dapscope_ran', 'yes')", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) || !be.Queued || be.Cell.Code != foreverCell {
		t.Fatalf("Evaluate queued behind a cell: %v (%+v), want *BusyError with Queued", err, be)
	}
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
	waitEvent(t, ctx, sub, "the user's cell to loop", looping)
	if err := b.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	if r := u.wait(cell); r.Reply.EName != "KeyboardInterrupt" {
		t.Errorf("the user's cell ended with %+v", r.Reply)
	}
	if err := b.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := b.EvaluateRepr(ctx, "__import__('builtins').__dict__.get('dapscope_ran')", CallOptions{})
	if err != nil || got != "None" {
		t.Errorf("the withdrawn request ran anyway: dapscope_ran = %s, %v", got, err)
	}
}

func TestTwoClientsOnOneKernel(t *testing.T) {
	k := startKernel(t)
	a := k.dial(t, Options{})
	b := k.dial(t, Options{})
	ctx := testCtx(t, 90*time.Second)
	if a.Session() == b.Session() {
		t.Fatal("two clients share a session id")
	}
	subA := a.Subscribe()
	defer subA.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i, c := range []*Client{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				want := fmt.Sprintf("client%d-%d", i, j)
				got, err := c.Evaluate(ctx, fmt.Sprintf("'client%d-' + str(%d)", i, j), CallOptions{Wait: 30 * time.Second})
				if err != nil || got != want {
					errs <- fmt.Errorf("client %d: got %q, %v; want %q", i, got, err, want)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// a saw b's requests as someone else's, and no user cell.
	var ours, theirs int
	drain, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	for {
		e, err := subA.Next(drain)
		if err != nil {
			break
		}
		switch {
		case e.Kind == EventCellStarted:
			t.Errorf("a silent evaluation was reported as a user's cell: %+v", e.Cell)
		case e.Kind == EventMessage && e.Ours:
			ours++
		case e.Kind == EventMessage && e.Msg.Parent.Session == b.Session():
			theirs++
		}
	}
	if ours == 0 || theirs == 0 {
		t.Errorf("a saw %d messages of its own and %d of b's, want both", ours, theirs)
	}
	for _, c := range []*Client{a, b} {
		if st := c.State(); st.Execution != StateIdle {
			t.Errorf("state at the end = %+v", st)
		}
	}
}
