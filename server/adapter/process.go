// Package adapter starts real debug adapters (debugpy, Delve) as child
// processes and hands back their DAP connection.
//
// This file holds the child-process plumbing shared by both: a process
// tree of its own (platform.Tree: a process group on Unix, a job object on
// Windows), stderr drained continuously into the log, and staged shutdown
// (close stdin, wait, SIGTERM where the system has it, wait, kill the whole
// tree) so that no adapter, launcher or debuggee is left behind.
package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os/exec"
	"sync"
	"time"

	"github.com/dapscope/dapscope/platform"
)

// Grace periods of the staged shutdown.
var (
	StdinGrace = 2 * time.Second
	TermGrace  = 2 * time.Second
)

// Adapter is a running debug adapter.
type Adapter struct {
	Kind Kind
	conn io.ReadWriteCloser
	cmd  *exec.Cmd
	tree *platform.Tree
	log  *slog.Logger

	closeOnce sync.Once
	waitDone  chan struct{}
	waitErr   error
	stdin     io.Closer

	trackMu sync.Mutex
	tracked []tracked
	dialed  bool // connected to a running adapter: no process of ours
}

// Conn is the DAP connection to the adapter.
func (a *Adapter) Conn() io.ReadWriteCloser { return a.conn }

// PID is the adapter's process id (its process group id too); 0 when the
// adapter was dialed rather than started.
func (a *Adapter) PID() int {
	if a.cmd == nil {
		return 0
	}
	return a.cmd.Process.Pid
}

// Exited is closed when the adapter process has exited.
func (a *Adapter) Exited() <-chan struct{} { return a.waitDone }

// ExitErr is the process's exit status once Exited is closed.
func (a *Adapter) ExitErr() error {
	<-a.waitDone
	return a.waitErr
}

// startProcess starts cmd in a process tree of its own with stderr (and
// stdout when drainStdout) drained into the log.
func startProcess(cmd *exec.Cmd, log *slog.Logger, drainStdout bool) (*Adapter, error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	var stdout io.ReadCloser
	if drainStdout {
		if stdout, err = cmd.StdoutPipe(); err != nil {
			return nil, err
		}
	}
	tree, err := platform.StartTree(cmd)
	if err != nil {
		return nil, err
	}
	a := &Adapter{cmd: cmd, tree: tree, log: log, waitDone: make(chan struct{})}
	var drains sync.WaitGroup
	drains.Add(1)
	go func() { defer drains.Done(); drain(stderr, log, "stderr") }()
	if stdout != nil {
		drains.Add(1)
		go func() { defer drains.Done(); drain(stdout, log, "stdout") }()
	}
	go func() {
		drains.Wait() // Wait must not run before the pipes are drained
		a.waitErr = cmd.Wait()
		close(a.waitDone)
	}()
	return a, nil
}

// drain logs a child's output line by line until EOF; long lines are cut
// so a chatty adapter cannot make the log grow without bound.
func drain(r io.Reader, log *slog.Logger, stream string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 2048 {
			line = line[:2048] + "…"
		}
		log.Debug("adapter output", "stream", stream, "line", line)
	}
	_, _ = io.Copy(io.Discard, r) // keep draining past an over-long line
}

// Close ends the adapter: close its input, then SIGTERM (Unix), then kill
// its tree, each after a grace period, and finally kill whatever is left
// in its tree (launcher, debuggee). It returns once the process has
// exited.
func (a *Adapter) Close() error {
	a.closeOnce.Do(func() {
		if a.conn != nil {
			_ = a.conn.Close()
		}
		if a.dialed {
			close(a.waitDone)
			return
		}
		if a.stdin != nil {
			_ = a.stdin.Close()
		}
		if !waitFor(a.waitDone, StdinGrace) {
			// Windows has no SIGTERM: after stdin, the tree is killed.
			if a.tree.Terminate() != nil || !waitFor(a.waitDone, TermGrace) {
				_ = a.tree.Kill()
				<-a.waitDone
			}
		}
		// The adapter is gone; anything still in its tree, and any
		// debuggee it started in a group of its own, is an orphan.
		a.tree.Close()
		a.killTracked()
	})
	<-a.waitDone
	var ee *exec.ExitError
	if errors.As(a.waitErr, &ee) {
		return nil // a signalled or non-zero exit is the expected end here
	}
	return a.waitErr
}

// Kill ends the adapter process alone at once, as a crash would (tests).
func (a *Adapter) Kill() {
	if a.cmd != nil {
		_ = a.cmd.Process.Kill()
	}
}

func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// pipeConn joins a child's stdout (read) and stdin (write) into one
// connection.
type pipeConn struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p *pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipeConn) Close() error {
	err := p.w.Close()
	_ = p.ReadCloser.Close()
	return err
}

// startStdio starts an adapter that speaks DAP on its stdin and stdout
// (debugpy's, lldb-dap): a missing executable is rt's install advice, and
// a ctx that ended meanwhile closes it again.
func startStdio(ctx context.Context, cmd *exec.Cmd, kind Kind, rt platform.Runtime, exe string, log *slog.Logger, what string) (*Adapter, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	a, err := startProcess(cmd, log.With("adapter", string(kind)), false)
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return nil, platform.Missing(rt, exe)
	}
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", what, err)
	}
	a.Kind = kind
	a.conn = &pipeConn{ReadCloser: stdout, w: stdin}
	a.stdin = stdin
	if err := ctx.Err(); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}
