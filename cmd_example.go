// cmd_example.go: `dapscope example` — runs a program headless to a
// breakpoint and prints where it stopped and the frame's locals (the
// sidecar-core smoke job).

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

func runExample(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("example", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	target := "testdata/core/loop.py:14"
	if fs.NArg() > 0 {
		target = fs.Arg(0)
	}
	file, lineStr, ok := strings.Cut(target, ":")
	line, err := strconv.Atoi(lineStr)
	if !ok || err != nil {
		fmt.Fprintln(os.Stderr, "dapscope example: want FILE.py:LINE")
		return 2
	}
	_, mgr, done, err := c.open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	s, err := mgr.Launch(ctx, session.LaunchSpec{Program: file, Breakpoints: []session.Breakpoint{{File: file, Line: line}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 1
	}
	st, err := s.Wait(ctx, 30*time.Second)
	if err != nil || st.Location == nil {
		fmt.Fprintf(os.Stderr, "%s:%d was not reached (%+v, %v)\n", file, line, st, err)
		return 1
	}
	loc := st.Location
	fmt.Printf("stopped (%s) in %s at %s:%d\n", loc.Reason, loc.Function, loc.File, loc.Line)
	scopes, err := s.Scopes(ctx, loc.FrameID)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scopes:", err)
		return 1
	}
	for _, sc := range scopes {
		if sc.Name != "Locals" {
			continue
		}
		vars, err := s.Variables(ctx, sc.VariablesReference)
		if err != nil {
			fmt.Fprintln(os.Stderr, "variables:", err)
			return 1
		}
		for _, v := range vars {
			if strings.HasPrefix(v.Name, "(") || strings.HasPrefix(v.Name, "__") {
				continue // debugpy's "(return) …" and dunder groups
			}
			fmt.Printf("  %-12s %-10s %s\n", v.Name, v.Type, v.Value)
		}
	}
	_ = s.Terminate(ctx)
	return 0
}
