// wiring.go: the composition root — builds what the subcommands share: the
// logger (stderr or a file, never a protocol stream), the session manager
// (workspace, adapter paths, and the "dapscope/…" requests the sidecar
// answers for editors, listed in customRequests) and the MCP server.

package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/dapscope/dapscope/server/mcp"
	"github.com/dapscope/dapscope/server/session"
)

// version is reported to the editor in initialize and to MCP clients.
const version = "0.1.0"

// commonFlags are shared by the subcommands that run sessions.
type commonFlags struct {
	workspace string
	python    string
	dlv       string
	node      string
	lldbDap   string
	logFile   string
	logLevel  string
	noDelay   bool
	fastWake  bool
	smart     bool
	attach    string
	warm      bool // keep a spare debugpy adapter (long-lived commands: registerWarm)
}

// registerWarm adds --warm-adapter, for the commands that live long
// enough for a spare adapter to serve a later launch (mcp, serve).
func (c *commonFlags) registerWarm(fs *flag.FlagSet) {
	fs.BoolVar(&c.warm, "warm-adapter", true, "keep a debugpy adapter and a spare Python debuggee started ahead of the next Python launch (launch to the first stop without their start-up)")
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.workspace, "workspace", "", "workspace root that paths are relative to (default: current directory)")
	fs.StringVar(&c.python, "python", "", "Python interpreter with debugpy, or a virtual environment's directory (default: $VIRTUAL_ENV's, else /usr/bin/python3, python3 or python on PATH; macOS: also Homebrew's and python.org's; Windows: python.exe or the py launcher)")
	fs.StringVar(&c.dlv, "dlv", "", "path to dlv (default: PATH, GOBIN, GOPATH/bin or ~/go/bin)")
	fs.StringVar(&c.node, "node", "", "node executable for JavaScript and TypeScript (default: node on PATH; TypeScript needs Node >= 22.6)")
	fs.StringVar(&c.lldbDap, "lldb-dap", "", "path to lldb-dap for C, C++ and Rust (default: the newest lldb-dap-N on PATH or /usr/lib/llvm-N/bin/lldb-dap, else lldb-dap on PATH)")
	fs.StringVar(&c.logFile, "log-file", "", "write logs to this file instead of stderr")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.BoolVar(&c.noDelay, "nodelay", true, "set TCP_NODELAY inside pydevd at the first stop (debugpy ~5x faster per request); false also turns off --fast-wake")
	fs.BoolVar(&c.fastWake, "fast-wake", true, "with --nodelay, make debugpy <= 1.8.5 answer requests on a stopped thread at once instead of after its 10 ms poll")
	fs.StringVar(&c.attach, "attach-hosts", "", "comma-separated non-loopback hosts that attach may connect to (default: loopback only)")
	fs.BoolVar(&c.smart, "smart-values", true, "show dapscope's one-line summaries of DataFrames, arrays and tensors in the editor's hover, Watch and Variables views")
}

// logger returns the configured logger and a closer for its file.
func (c *commonFlags) logger() (*slog.Logger, io.Closer, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(strings.ToUpper(c.logLevel))); err != nil {
		return nil, nil, fmt.Errorf("--log-level: %v", err)
	}
	var w io.Writer = os.Stderr
	var closer io.Closer = io.NopCloser(nil)
	if c.logFile != "" {
		f, err := os.OpenFile(c.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, err
		}
		w, closer = f, f
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl})), closer, nil
}

// customRequests are the "dapscope/…" requests every session answers for
// editors.
func customRequests() map[string]session.CustomHandler {
	return map[string]session.CustomHandler{
		"dapscope/inspect": inspectRequest, // request_inspect.go
	}
}

// open builds the logger and the session manager; done closes both (the
// manager first, so its last logs still reach the file).
func (c *commonFlags) open() (log *slog.Logger, mgr *session.Manager, done func(), err error) {
	log, closer, err := c.logger()
	if err != nil {
		return nil, nil, nil, err
	}
	if mgr, err = c.manager(log); err != nil {
		_ = closer.Close()
		return nil, nil, nil, err
	}
	return log, mgr, func() { _ = mgr.Close(); _ = closer.Close() }, nil
}

func (c *commonFlags) manager(log *slog.Logger) (*session.Manager, error) {
	ws := c.workspace
	if ws == "" {
		ws, _ = os.Getwd()
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, err
	}
	return session.NewManager(session.ManagerOptions{
		Workspace: ws, Python: c.python, Dlv: c.dlv, Node: c.node, LLDBDap: c.lldbDap, DisableNoDelay: !c.noDelay, DisableFastWake: !c.fastWake, DisableSmartValues: !c.smart,
		Logger: log, Custom: customRequests(), AttachHosts: splitList(c.attach), WarmAdapters: c.warm,
	}), nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// newMCPServer builds the MCP server over the sessions of mgr; a
// memoryBudget of 0 means the default. The caller closes it.
func newMCPServer(log *slog.Logger, mgr *session.Manager, memoryBudget int64) *mcp.Server {
	return mcp.New(mgr, mcp.Options{Logger: log, Version: version, MemoryBudget: memoryBudget})
}
