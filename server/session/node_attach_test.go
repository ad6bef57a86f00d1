// node_attach_test.go: a headless attach to a node started by someone else
// with --inspect (AttachSpec.Adapter "node"): a breakpoint, a stop, an
// evaluate, and a detach that leaves the program running; and a clear
// error when no inspector listens on the port.

package session

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/platform"
)

// startInspectedNode runs node --inspect=127.0.0.1:0 prog and returns the
// inspector's port; node is killed when the test ends.
func startInspectedNode(t *testing.T, prog string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("node", "--inspect=127.0.0.1:0", prog)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := platform.StartTree(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tree.Kill(); _ = cmd.Wait(); tree.Close() })
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`ws://127\.0\.0\.1:(\d+)/`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // keep draining node's stderr
				}
			}()
			port, _ := strconv.Atoi(m[1])
			return cmd, port
		}
	}
	t.Fatal("node did not announce its inspector")
	return nil, 0
}

func TestNodeAttach(t *testing.T) {
	rel := "testdata/node/spin.js"
	_, port := startInspectedNode(t, filepath.Join(repoRoot(t), rel))
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	// → initialize → attach(address, port) ← initialized → setBreakpoints(@tick) → configurationDone ← stopped
	s, err := m.Attach(ctx, AttachSpec{Adapter: "node", Port: port, Breakpoints: []Breakpoint{{File: rel, Line: markerLine(t, rel, "tick")}}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.File != rel || st.Location.Reason != "breakpoint" {
		t.Fatalf("stop = %+v", st.Location)
	}
	if ev, err := s.Evaluate(ctx, "typeof globalThis.ticks", st.Location.FrameID, "watch"); err != nil || !strings.Contains(ev.Result, "number") {
		t.Fatalf("evaluate = %+v, %v", ev, err)
	}
	if info := s.Info(); info.Adapter != "node" {
		t.Fatalf("adapter = %s", info.Adapter)
	}
	// → disconnect (no terminate): the program goes on running.
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	// A second attach finds the same program still running and stops it again.
	s2, err := m.Attach(ctx, AttachSpec{Adapter: "node", Port: port, Breakpoints: []Breakpoint{{File: rel, Line: markerLine(t, rel, "tick")}}})
	if err != nil {
		t.Fatalf("re-attach after the detach: %v", err)
	}
	if st2 := waitStop(t, s2); st2.Location.Line != st.Location.Line {
		t.Fatalf("second stop = %+v", st2.Location)
	}
	_ = s2.Terminate(ctx)

	// Nothing listens on a fresh closed port: the error says what to check.
	_, err = m.Attach(ctx, AttachSpec{Adapter: "node", Port: freePort(t)})
	if err == nil || !strings.Contains(err.Error(), "no node inspector") {
		t.Fatalf("attach to nothing: %v", err)
	}
}
