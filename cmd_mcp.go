// cmd_mcp.go: `dapscope mcp` — the MCP server for AI agents: stdio by
// default (headless sessions; nothing but protocol on stdout, logs on
// stderr), or streamable HTTP on a loopback address with a per-launch
// bearer token (the endpoint is printed as one JSON line on stdout); the
// HTTP server ends with its launcher unless --detached.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func runMCP(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	c.registerWarm(fs)
	httpAddr := fs.String("http", "", "serve streamable HTTP on this loopback address (e.g. 127.0.0.1:0) instead of stdio")
	budgetMB := fs.Int64("memory-budget-mb", 256, "memory budget for stored snapshots and captured output, in MB")
	detached := fs.Bool("detached", false, "with --http: keep running after the process that started dapscope exits")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log, mgr, done, err := c.open()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope mcp:", err)
		return 2
	}
	defer done()
	srv := newMCPServer(log, mgr, *budgetMB<<20)
	defer srv.Close()
	if *httpAddr == "" {
		if err := srv.ServeStdio(ctx, os.Stdin, os.Stdout); err != nil {
			log.Error("mcp stdio", "err", err)
			return 1
		}
		return 0
	}
	if !*detached {
		var stop context.CancelFunc
		ctx, stop = untilParentExits(ctx, log)
		defer stop()
	}
	ep, err := srv.ServeHTTP(ctx, *httpAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope mcp:", err)
		return 2
	}
	// The launcher reads the endpoint and token from this one line.
	if err := json.NewEncoder(os.Stdout).Encode(ep); err != nil {
		return 1
	}
	<-ctx.Done()
	return 0
}
