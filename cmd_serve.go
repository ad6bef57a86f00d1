// cmd_serve.go: `dapscope serve` — the editor channel: LSP-style JSON-RPC on
// stdio that the VS Code extension starts as a language client (hover, smart
// inspect, debug proxies, MCP endpoint, session notifications). Logs go to
// stderr (the extension shows them in its output channel), never stdout.

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/dapscope/dapscope/editor"
)

// stdio is the JSON-RPC stream on stdin/stdout.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return os.Stdin.Close() }

func runServe(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	c.registerWarm(fs)
	traceDAP := fs.Bool("trace-dap", false, "log at debug level (DAP traffic of the sidecar's sessions)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *traceDAP {
		c.logLevel = "debug"
	}
	log, mgr, done, err := c.open()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope serve:", err)
		return 2
	}
	defer done()
	// The MCP streamable-HTTP server over the same sessions starts on first
	// request (loopback, random port, per-launch bearer token).
	mcpSrv := newMCPServer(log, mgr, 0)
	defer mcpSrv.Close()
	var (
		mcpOnce sync.Once
		mcpEP   editor.Endpoint
		mcpErr  error
	)
	opts := editor.Options{Manager: mgr, Logger: log, Version: version,
		MCPEndpoint: func(context.Context) (editor.Endpoint, error) {
			mcpOnce.Do(func() {
				ep, err := mcpSrv.ServeHTTP(ctx, "127.0.0.1:0")
				mcpEP, mcpErr = editor.Endpoint{URL: ep.URL, Token: ep.Token}, err
				if err == nil {
					log.Info("MCP HTTP endpoint", "url", ep.URL)
				}
			})
			return mcpEP, mcpErr
		}}
	if err := editor.New(opts).Serve(ctx, stdio{os.Stdin, os.Stdout}); err != nil {
		log.Error("editor channel ended", "err", err)
		return 1
	}
	return 0
}
