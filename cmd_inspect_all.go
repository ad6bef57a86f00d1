// cmd_inspect_all.go: `dapscope inspect PROGRAM:LINE EXPR --all-processes`
// — the program's tree of processes (a multiprocessing run, a pool's
// workers) asked at once: it waits until --processes of them are paused,
// inspects EXPR in each paused one's top frame concurrently and prints one
// table, a row per process (server/allprocs).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/session"
)

// inspectAllProcesses is the testable body of --all-processes.
func inspectAllProcesses(ctx context.Context, mgr *session.Manager, out io.Writer, file string, line int, progArgs, exprs []string,
	opts inspect.Options, maxBytes, want int, wait time.Duration) int {
	spec := launchSpecFor(mgr.Workspace(), file, line, progArgs)
	s, end, ok := launchForInspect(ctx, mgr, spec) // cmd_inspect.go
	if !ok {
		return 1
	}
	defer end()
	want = max(want, 1)
	deadline := time.Now().Add(wait)
	for pausedIn(s) < want {
		if time.Now().After(deadline) || s.Status() != session.StatusRunning && s.Status() != session.StatusPaused {
			fmt.Fprintf(os.Stderr, "dapscope inspect: %d of %d processes reached %s:%d (status %s)\n", pausedIn(s), want, file, line, s.Status())
			return 1
		}
		select {
		case <-ctx.Done():
			return 1
		case <-time.After(50 * time.Millisecond):
		}
	}
	if maxBytes <= 0 {
		maxBytes = 8 << 10
	}
	var texts []string
	var tables []*allprocs.Table
	for _, expr := range exprs {
		t := allprocs.Run(ctx, allprocs.Sessions(s.Tree()), expr, nil, maxBytes, allprocs.Inspect(opts, expr))
		tables = append(tables, t)
		texts = append(texts, t.Text())
	}
	if opts.Format == "json" {
		b, _ := json.MarshalIndent(tables, "", "  ")
		fmt.Fprintln(out, string(b))
	} else {
		fmt.Fprintln(out, strings.Join(texts, "\n"))
	}
	return 0
}

// pausedIn counts the paused sessions of s's tree.
func pausedIn(s *session.Session) int {
	n := 0
	for _, c := range s.Tree() {
		if c.Status() == session.StatusPaused {
			n++
		}
	}
	return n
}
