// parent_test.go: WatchParent sees its parent die (a real parent process
// killed outright, on every system: getppid on Linux, the process handle on
// Windows under Wine), and its goroutine ends with its context.

package platform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWatchParentSeesItsParentDie(t *testing.T) {
	outFile := filepath.Join(t.TempDir(), "watch.out")
	parent := helper("spawn-watch", "WATCH_OUT="+outFile)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	watcher := readPID(t, out)
	t.Cleanup(func() { _ = KillProcess(watcher) })
	wait := func(what string) string {
		deadline := time.Now().Add(30 * time.Second)
		for {
			b, _ := os.ReadFile(outFile)
			if strings.Contains(string(b), what) {
				return string(b)
			}
			if time.Now().After(deadline) {
				_ = parent.Process.Kill()
				t.Fatalf("the watcher never printed %q: %q", what, b)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if got := wait("watching"); strings.Contains(got, "watching 0") {
		t.Fatalf("the watcher does not watch its parent: %q", got)
	}
	_ = parent.Process.Kill()
	_ = parent.Wait()
	wait("exited")
	waitGone(t, watcher, "the watcher after its parent died")
}

func TestWatchParentEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan int, 1)
	pp := WatchParent(ctx, func(p int) { called <- p })
	cancel()
	if pp == 0 {
		return // this test process has no parent to watch (started by init)
	}
	// goleak (TestMain) checks that the watch's goroutine is gone; the
	// parent (go test) is alive, so nothing was called.
	time.Sleep(2 * parentPoll)
	select {
	case p := <-called:
		t.Fatalf("exited(%d) called while the parent runs", p)
	default:
	}
}
