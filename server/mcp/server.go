// Package mcp is dapscope's Model Context Protocol server: tools that let an
// AI agent drive and inspect debug sessions (its own headless ones, or the
// live session a person debugs through the proxy) with compact, structured,
// bounded answers. Sessions, watches and snapshots are held here by id, so
// nothing large travels through the agent.
//
// server.go: the Server, its options, and New — the one place that
// registers every tool group (one file per group: tools_*.go, watches.go,
// snapshots.go, diff.go). The tool middleware is in tool.go, errors in
// errors.go, per-session state in state.go, transports in stdio.go and
// http.go.
package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

// Options configure a Server.
type Options struct {
	Logger *slog.Logger
	// MemoryBudget bounds stored snapshots plus captured output (bytes;
	// default 256 MB).
	MemoryBudget int64
	// MaxResponseBytes caps every tool response (default 100 KB).
	MaxResponseBytes int
	// WaitTimeout is the default wait of the moving tools (default 30 s).
	WaitTimeout time.Duration
	// Version reported to clients.
	Version string
	// HTTPSessionIdle closes an MCP session over HTTP idle this long
	// (default 1 h); MaxHTTPSessions bounds how many are open (default 64:
	// a new one closes the oldest idle ones first). httpsessions.go.
	HTTPSessionIdle time.Duration
	MaxHTTPSessions int
	// Kernels is where kernel_list and kernel_attach look for local
	// Jupyter kernels (default: the runtime directory and processes).
	Kernels kernel.ListOptions
}

// Server is the MCP server over a session manager.
type Server struct {
	mgr    *session.Manager
	opts   Options
	log    *slog.Logger
	mcp    *mcpserver.MCPServer
	budget *budget
	// code gives stop reports the enclosing symbol and callers (set by
	// registerCodeTools; nil when code context is unavailable).
	code codeContext
	// inspect runs the smart inspector (set by registerInspectTools; nil
	// when unavailable).
	inspect inspectFunc

	inflight atomic.Int64 // tool calls being handled
	// rayTasks are the Ray tasks ray_list found, by endpoint: debug_attach
	// to one joins its cluster's tree (tools_ray.go).
	rayTasks rayListed

	mu     sync.Mutex
	states map[string]*sessState
	seq    int
	// httpSessions are the MCP session tables of the HTTP endpoints.
	httpSessions []*httpSessions

	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
	once     sync.Once
}

// New builds the server and registers its tools.
func New(mgr *session.Manager, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MemoryBudget <= 0 {
		opts.MemoryBudget = DefaultMemoryBudget
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.WaitTimeout <= 0 {
		opts.WaitTimeout = 30 * time.Second
	}
	if opts.Version == "" {
		opts.Version = "0.1.0"
	}
	if opts.HTTPSessionIdle <= 0 {
		opts.HTTPSessionIdle = DefaultHTTPSessionIdle
	}
	if opts.MaxHTTPSessions <= 0 {
		opts.MaxHTTPSessions = DefaultMaxHTTPSessions
	}
	s := &Server{mgr: mgr, opts: opts, log: opts.Logger, budget: newBudget(opts.MemoryBudget), states: map[string]*sessState{}}
	mgr.OnRemove(s.dropState) // watches, snapshots and their memory go with a forgotten session
	s.mcp = mcpserver.NewMCPServer("dapscope", opts.Version,
		mcpserver.WithToolCapabilities(false),
		mcpserver.WithOutputSchemaValidation(),
		mcpserver.WithRecovery(),
		mcpserver.WithLogger(slog.New(quieter{opts.Logger.Handler()})),
		mcpserver.WithInstructions(instructions),
	)
	s.bgCtx, s.bgCancel = context.WithCancel(context.Background())
	s.registerTools()
	s.startStopFollower()
	return s
}

// registerTools adds every tool group.
func (s *Server) registerTools() {
	s.registerSessionTools()    // tools_session.go
	s.registerBreakpointTools() // tools_breakpoints.go
	s.registerMovingTools()     // tools_moving.go
	s.registerFrameTools()      // tools_frames.go
	s.registerWatchTools()      // watches.go
	s.registerSnapshotTools()   // snapshots.go
	s.registerDiffTools()       // diff.go
	s.registerOutputTools()     // tools_output.go
	s.registerCodeTools()       // tools_code.go: code context (inspect/code)
	s.registerInspectTools()    // tools_inspect.go: smart inspection (inspect)
	s.registerKernelTools()     // tools_kernel.go: live Jupyter kernels (server/kernel)
	s.registerRayTools()        // tools_ray.go: Ray's paused tasks (server/ray)
}

// instructions are what an agent reads once about the server: what it can
// debug (every adapter, the editor's own sessions, Jupyter kernels), the
// flow, and the conventions the tools' schemas do not repeat.
const instructions = `dapscope debugs Python (debugpy), Go (Delve), JavaScript and TypeScript (its own Node adapter over V8's inspector), C, C++ and Rust binaries (adapter "lldb": lldb-dap; its inspector reads memory inside lldb and never runs the program's code; ptr@N inspects N elements behind a pointer), the sessions of VS Code's own debuggers (js-debug, Python, Go: origin "bridged"), and Jupyter kernels (kernel_list, kernel_attach): a session of kind kernel whose namespace the debug_* tools read, each cell run a stop. Ray tasks paused at breakpoint() (ray_list, then debug_attach to each) join one root session per cluster; the root's id asks every task at once. debug_launch picks the adapter from the program (.py; .go or a package directory; .js .mjs .cjs .ts .mts .cts) unless adapter names one; debug_attach reaches debugpy --listen or node --inspect, or with adapter "lldb" a process id (pid). Typical flow: debug_launch with breakpoints (waits for the first stop) -> debug_inspect_variable / debug_evaluate / debug_variables -> debug_step or debug_continue (each waits and returns the stop with source lines and locals) -> debug_outcome. No session_id means the active session; no frame_id means the top frame of the stopped thread. Timeouts are in seconds; debug_launch and the moving tools wait up to 30 by default. Paths are relative to the workspace.`

// codeContext answers "which symbol encloses this line, who calls it".
type codeContext interface {
	enclosing(path string, line int) *CodeContext
}

// inspected is one smart inspection: the result as JSON and its summary.
type inspected struct {
	JSON    json.RawMessage
	Summary string
	Text    string
}

// inspectOpts are the knobs the tools pass to the inspector.
type inspectOpts struct {
	MaxPreviewRows    int
	MaxPreviewItems   int
	IncludeStatistics *bool
	Format            string
	Width             int
}

type inspectFunc func(ctx context.Context, sess *session.Session, frameID int, expr string, o inspectOpts) (*inspected, error)

// MCP exposes the underlying mcp-go server (for in-process clients).
func (s *Server) MCP() *mcpserver.MCPServer { return s.mcp }

// Close stops background work. It does not close the session manager.
func (s *Server) Close() {
	s.once.Do(func() {
		s.bgCancel()
		s.bg.Wait()
		if c, ok := s.code.(io.Closer); ok {
			_ = c.Close()
		}
	})
}
