// Command dapscope is a DAP sidecar: it proxies an editor's debug session to a
// real adapter and serves smart inspection to the editor and to MCP agents.
// This file holds only the subcommand dispatch; each subcommand lives in its
// own cmd_*.go file and registers itself in init.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand: it gets the arguments after its name and returns
// the process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) int
}

var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string) int) {
	if _, dup := commands[name]; dup {
		panic("dapscope: duplicate command " + name)
	}
	commands[name] = command{summary: summary, run: run}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: dapscope <command> [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	name := os.Args[1]
	if name == "-h" || name == "--help" || name == "help" {
		usage()
		return
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "dapscope: unknown command %q\n", name)
		usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cmd.run(ctx, os.Args[2:])
	stop()
	os.Exit(code)
}
