// tree_test.go: a Tree ends with its root every process the root started
// (Kill; Close once the root is gone), stops politely where the system can
// (SIGTERM on Unix, ErrNoPoliteStop on Windows), dies with its owner (Linux
// and Windows), and reports exit codes; real processes of this test binary
// on every system (under Wine for Windows).

package platform

import (
	"errors"
	"os/exec"
	"runtime"
	"testing"
)

// startRoot starts helper "root" as a tree and returns it with the pid of
// the root's own child.
func startRoot(t *testing.T, env ...string) (*Tree, *exec.Cmd, int) {
	t.Helper()
	cmd := helper("root", env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := StartTree(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree, cmd, readPID(t, out)
}

func TestTreeKillEndsDescendants(t *testing.T) {
	tree, cmd, child := startRoot(t)
	if !running(tree.PID()) || !running(child) {
		t.Fatal("the tree's root and its child run")
	}
	if err := tree.Kill(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if code := ExitCode(err); code != KilledExitCode {
		t.Errorf("exit code of a killed root = %d (%v), want %d", code, err, KilledExitCode)
	}
	waitGone(t, child, "the root's child after Kill")
}

func TestTreeCloseEndsWhatTheRootLeft(t *testing.T) {
	tree, cmd, child := startRoot(t, "ROOT_EXIT=1")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the root exits on its own: %v", err)
	}
	if !running(child) {
		t.Fatal("the root's child outlives the root until Close")
	}
	tree.Close()
	waitGone(t, child, "the child the root left")
}

func TestTreeTerminate(t *testing.T) {
	tree, cmd, child := startRoot(t)
	err := tree.Terminate()
	if runtime.GOOS == "windows" {
		if !errors.Is(err, ErrNoPoliteStop) {
			t.Fatalf("Terminate on Windows = %v, want ErrNoPoliteStop", err)
		}
		_ = tree.Kill()
		_ = cmd.Wait()
		waitGone(t, child, "the child")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	// SIGTERM went to the whole group: the root and its child end.
	if code := ExitCode(cmd.Wait()); code != 128+15 {
		t.Errorf("exit code after SIGTERM = %d, want 143", code)
	}
	waitGone(t, child, "the child after SIGTERM to the group")
}

// A tree dies with the process that started it, even when that one is
// killed outright (no shutdown code runs): Pdeathsig on Linux, the job's
// last handle closing on Windows. macOS has neither (tree_posix.go).
func TestTreeDiesWithOwner(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("no kernel mechanism ends a child with its parent on " + runtime.GOOS + " (documented in README)")
	}
	owner := helper("owner")
	out, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	root := readPID(t, out)
	if !running(root) {
		t.Fatal("the owner's tree runs")
	}
	_ = owner.Process.Kill()
	_ = owner.Wait()
	waitGone(t, root, "the tree of a killed owner")
}

func TestExitCode(t *testing.T) {
	if ExitCode(nil) != 0 || ExitCode(errors.New("not started")) != -1 {
		t.Error("ExitCode of nil / a start error")
	}
	cmd := helper("nonsense") // runHelper answers 2
	if code := ExitCode(cmd.Run()); code != 2 {
		t.Errorf("ExitCode = %d, want 2", code)
	}
}
