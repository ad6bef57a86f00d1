// launch.go: starting `node --inspect-brk=127.0.0.1:0 PROGRAM args…` in a
// process tree of its own (platform.Tree: killed with the sidecar on Linux
// and Windows), reading the inspector's
// ws:// URL from its stderr, then streaming its stdout and stderr as output
// lines (the inspector's own messages left out), and its exit status.

package node

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dapscope/dapscope/platform"
)

// DefaultNode is the node executable used when none is configured.
const DefaultNode = "node"

// wsURL is the inspector's announcement on stderr.
var wsURL = regexp.MustCompile(`Debugger listening on (ws://\S+)`)

// inspectorNoise are stderr lines the inspector prints for its client.
var inspectorNoise = []string{
	"Debugger listening on ws://",
	"For help, see: https://nodejs.org/", // en/docs/inspector (node 20), learn/getting-started/debugging (node 24)
	"Debugger attached.",
	"Debugger ending on ws://",
	"Waiting for the debugger to disconnect...",
}

// process is a launched node.
type process struct {
	cmd  *exec.Cmd
	tree *platform.Tree
	url  string        // the inspector's websocket URL
	done chan struct{} // closed once the process has exited and its pipes are drained
	err  error         // cmd.Wait's error, set before done closes

	started  atomic.Bool     // the program reached its first statement
	stderrMu sync.Mutex      //
	stderr   strings.Builder // stderr until it started (loaderror.go)
}

// launchSpec is what the launch request asks for.
type launchSpec struct {
	Node    string
	Flags   []string // node's own options, before the program
	Program string
	Args    []string
	Cwd     string
	Env     map[string]string
	// Output receives the program's output lines ("stdout"/"stderr"),
	// from the pipes' goroutines.
	Output func(category, text string)
	// Waiting is called when node says it waits for the debugger to
	// disconnect (the program is over).
	Waiting func()
}

// startNode starts node and waits (bounded by ctx and timeout) for the
// inspector's URL.
func startNode(ctx context.Context, spec launchSpec, timeout time.Duration) (*process, error) {
	bin := spec.Node
	if bin == "" {
		bin = DefaultNode
	}
	argv := append([]string{"--inspect-brk=127.0.0.1:0"}, spec.Flags...)
	argv = append(append(argv, spec.Program), spec.Args...)
	cmd := exec.Command(bin, argv...)
	cmd.Dir = spec.Cwd
	cmd.Env = os.Environ()
	for k, v := range spec.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	tree, err := platform.StartTree(cmd)
	if err != nil {
		return nil, fmt.Errorf("starting node (%s): %w", bin, err)
	}
	p := &process{cmd: cmd, tree: tree, done: make(chan struct{})}
	found := make(chan string, 1)
	var early strings.Builder // stderr before the URL: the reason when there is none
	var earlyMu sync.Mutex
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() {
		defer pipes.Done()
		readLines(stdout, func(line string) { spec.Output("stdout", line) })
	}()
	go func() {
		defer pipes.Done()
		sent := false
		readLines(stderr, func(line string) {
			if !sent {
				if m := wsURL.FindStringSubmatch(line); m != nil {
					found <- m[1]
					sent = true
					return
				}
				earlyMu.Lock()
				if early.Len() < 4096 {
					early.WriteString(line)
				}
				earlyMu.Unlock()
			}
			if strings.HasPrefix(line, "Waiting for the debugger to disconnect") && spec.Waiting != nil {
				spec.Waiting()
			}
			if !isNoise(line) {
				p.noteStderr(line)
				spec.Output("stderr", line)
			}
		})
	}()
	go func() {
		pipes.Wait()
		p.err = cmd.Wait()
		p.tree.Close() // what the program left running ends with it
		close(p.done)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case p.url = <-found:
		return p, nil
	case <-p.done:
		earlyMu.Lock()
		defer earlyMu.Unlock()
		return nil, fmt.Errorf("node exited before its inspector started (%v): %s", p.err, strings.TrimSpace(early.String()))
	case <-t.C:
		p.kill()
		return nil, fmt.Errorf("node's inspector did not start within %s", timeout)
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	}
}

func isNoise(line string) bool {
	for _, n := range inspectorNoise {
		if strings.HasPrefix(line, n) {
			return true
		}
	}
	return false
}

// readLines calls f with every line of r (newline kept); an over-long line
// comes in pieces of at most 64 KiB.
func readLines(r io.Reader, f func(string)) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		b, err := br.ReadSlice('\n')
		if len(b) > 0 {
			f(string(b))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// kill ends node and everything in its tree, and waits for it.
func (p *process) kill() {
	_ = p.tree.Kill()
	<-p.done
}

// exitCode is node's exit status: its exit code, or 128+N when signal N
// killed it (as a shell reports it).
func (p *process) exitCode() int {
	<-p.done
	return platform.ExitCode(p.err)
}

// signaled says whether node (exited) was killed by a signal.
func (p *process) signaled() bool {
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			return ws.Signaled()
		}
	}
	return false
}
