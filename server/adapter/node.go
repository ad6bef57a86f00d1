// node.go: Node.js, through dapscope's own adapter (server/adapter/node: a
// DAP server over V8's inspector) running inside the sidecar on one end of
// an in-memory pipe; the sidecar's side is the adapter connection. The
// node process is started at launch (`node --inspect-brk=127.0.0.1:0`), in
// its own process group, and ended with the connection.

package adapter

import (
	"context"
	"log/slog"
	"net"
	"os/exec"

	"github.com/dapscope/dapscope/inspect"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter/node"
)

// NodeConfig configures a Node adapter.
type NodeConfig struct {
	Node   string // the node executable ("": node on PATH)
	Logger *slog.Logger
}

// StartNode starts the Node adapter; its connection speaks DAP.
func StartNode(ctx context.Context, cfg NodeConfig) (*Adapter, error) {
	bin := cfg.Node
	if bin == "" {
		p, err := platform.Find(platform.Node)
		if err != nil {
			return nil, err
		}
		bin = p
	} else if _, err := exec.LookPath(bin); err != nil {
		return nil, platform.Missing(platform.Node, bin)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ours, theirs := net.Pipe()
	srv := node.New(theirs, node.Options{Node: bin, Logger: cfg.Logger})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve()
		_ = theirs.Close()
	}()
	// Closing the connection ends the server, which ends node; Close
	// returns once both are gone.
	c := &servedConn{Conn: ours, done: done}
	return &Adapter{Kind: Node, conn: c, waitDone: make(chan struct{}), dialed: true}, nil
}

// servedConn is the sidecar's end of the pipe to an in-process adapter.
type servedConn struct {
	net.Conn
	done chan struct{}
}

func (c *servedConn) Close() error {
	err := c.Conn.Close()
	<-c.done
	return err
}

// LoadErrorEvent is the event the Node adapter sends when node exits
// without having started the program (a syntax error…), with a LoadError.
const LoadErrorEvent = node.LoadErrorEvent

// LoadError is the body of a LoadErrorEvent.
type LoadError = node.LoadError

// BreakpointErrorEvent is the event the Node adapter sends when a
// breakpoint's condition, hit condition or log message threw, with a
// BreakpointError.
const BreakpointErrorEvent = node.BreakpointErrorEvent

// BreakpointError is the body of a BreakpointErrorEvent.
type BreakpointError = node.BreakpointError

// InspectorLostEvent is the event the Node adapter sends when its
// connection to the inspector ended under a live program, with an
// InspectorLost.
const InspectorLostEvent = node.InspectorLostEvent

// InspectorLost is the body of an InspectorLostEvent.
type InspectorLost = node.InspectorLost

// nodeDriver is the Driver of Node.
type nodeDriver struct{}

func (nodeDriver) Kind() Kind                 { return Node }
func (nodeDriver) Language() inspect.Language { return inspect.JavaScript }
func (nodeDriver) AdapterID() string          { return string(Node) }
func (nodeDriver) Targets() Targets           { return Targets{} }
func (nodeDriver) Dir(string) string          { return "" }
func (nodeDriver) ExceptionFilters() []string { return []string{"uncaught"} }
func (nodeDriver) FirstStop(context.Context, Caller, int, FirstStopOptions) (FirstStopResult, error) {
	return FirstStopResult{}, nil
}

func (nodeDriver) Detach(context.Context, Caller, int) (string, error) { return "", nil }

// Traceback: V8's stack is already in JavaScript's order (innermost first,
// the error line on top).
func (nodeDriver) Traceback(raw string) string { return raw }

// OutputCategory: the program's console.* arrives as "console" (attached
// programs) and is the program's; the adapter has no notices of its own.
func (nodeDriver) OutputCategory(c string) string {
	if c == "console" {
		return c
	}
	return dapOutputCategory(c)
}

// Diagnose: node's own stderr (a syntax error, a missing module) reaches
// the session as output.
func (nodeDriver) Diagnose(context.Context, LaunchConfig) string { return "" }

func (nodeDriver) Start(ctx context.Context, cfg StartConfig) (*Adapter, error) {
	return StartNode(ctx, NodeConfig{Node: cfg.Exe, Logger: cfg.Logger})
}

// LaunchArgs run the program under node; its output comes as output events.
func (nodeDriver) LaunchArgs(cfg LaunchConfig) map[string]any {
	args := baseLaunch(cfg, cfg.Env)
	args["type"] = "node"
	args["program"] = cfg.Program
	if cfg.Exe != "" {
		args["runtimeExecutable"] = cfg.Exe
	}
	if cfg.InterruptTimeout > 0 { // V8 terminates a runaway evaluation
		args["evalTimeoutMs"] = cfg.InterruptTimeout.Milliseconds()
	}
	if cfg.Workspace != "" {
		args["dapscopeWorkspace"] = cfg.Workspace
	}
	return args
}

// Attach starts the node adapter, which reaches the inspector of a node
// started with --inspect=HOST:PORT.
func (nodeDriver) Attach(host string, port int) (AttachPlan, error) {
	return AttachPlan{Args: map[string]any{"request": "attach", "type": "node", "address": host, "port": port}}, nil
}

// nodeSignals are the signals whose exit codes (128+N, as the node adapter
// reports a killed node) mean a killed debuggee.
var nodeSignals = map[int]string{
	4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM",
}

// ExitSignal: the node adapter reports a node killed by signal N as 128+N.
func (nodeDriver) ExitSignal(code int) (int, string) {
	if name, ok := nodeSignals[code-128]; ok {
		return code - 128, name
	}
	return 0, ""
}
