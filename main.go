// Command dapscope is a DAP sidecar: it proxies an editor's debug session to a
// real adapter and serves smart inspection to the editor and to MCP agents.
// This file holds the subcommand table and the dispatch; each subcommand's
// CLI lives in its own cmd_*.go file, and wiring.go builds what they share.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: run gets the arguments after its name and
// returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string) int
}

// commands is every subcommand, sorted by name (usage lists them in this
// order).
var commands = []command{
	{"code", "code context: `code inspect --symbol S | --path P [--line N]`", runCodeCmd},
	{"dap", "serve one editor as a DAP proxy in front of debugpy or Delve", runDAP},
	{"example", "run a Python program to FILE:LINE and print the frame's locals", runExample},
	{"inspect", "run a program to FILE:LINE and inspect expressions (DataFrames, arrays, dicts, objects)", runInspect},
	{"kernel", "live Jupyter kernels: `kernel list`, `kernel inspect EXPR...`, `kernel vars`", runKernel},
	{"mcp", "serve MCP tools to AI agents (stdio, or --http 127.0.0.1:0)", runMCP},
	{"ray", "Ray tasks paused at breakpoint(): `ray list`, `ray inspect EXPR...` (every paused task at once)", runRay},
	{"serve", "serve the VS Code extension over stdio JSON-RPC (hover, inspect, proxies)", runServe},
}

// lookup finds a subcommand by name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: dapscope <command> [arguments]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", c.name, c.summary)
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
	cmd, ok := lookup(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "dapscope: unknown command %q\n", name)
		usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	returned := exitWhenStuck(ctx, stopGrace, 130, os.Exit)
	code := cmd.run(ctx, os.Args[2:])
	returned()
	stop()
	os.Exit(code)
}
