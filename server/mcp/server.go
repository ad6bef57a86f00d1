// Package mcp is dapscope's Model Context Protocol server: tools that let an
// AI agent drive and inspect debug sessions (its own headless ones, or the
// live session a person debugs through the proxy) with compact, structured,
// bounded answers. Sessions, watches and snapshots are held here by id, so
// nothing large travels through the agent.
//
// server.go: the Server, its options, tool registration (strict arguments,
// annotations, output schema, structured content plus a compact text
// rendering, errors as isError results with hints), progress notifications,
// and the stdio transport.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

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
}

// Server is the MCP server over a session manager.
type Server struct {
	mgr    *session.Manager
	opts   Options
	log    *slog.Logger
	mcp    *mcpserver.MCPServer
	budget *budget
	// code gives stop reports the enclosing symbol and callers (nil when
	// code context is unavailable).
	code codeContext
	// inspect runs the smart inspector (nil when unavailable).
	inspect inspectFunc

	inflight atomic.Int64 // tool calls being handled

	mu     sync.Mutex
	states map[string]*sessState
	seq    int

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
	s := &Server{mgr: mgr, opts: opts, log: opts.Logger, budget: newBudget(opts.MemoryBudget), states: map[string]*sessState{}}
	s.mcp = mcpserver.NewMCPServer("dapscope", opts.Version,
		mcpserver.WithToolCapabilities(false),
		mcpserver.WithOutputSchemaValidation(),
		mcpserver.WithRecovery(),
		mcpserver.WithLogger(slog.New(quieter{opts.Logger.Handler()})),
		mcpserver.WithInstructions(instructions),
	)
	s.bgCtx, s.bgCancel = context.WithCancel(context.Background())
	s.registerSessionTools()
	s.registerBreakpointTools()
	s.registerMovingTools()
	s.registerFrameTools()
	s.registerWatchTools()
	s.registerSnapshotTools()
	s.registerOutputTools()
	for _, reg := range extraTools {
		reg(s)
	}
	s.startStopFollower()
	return s
}

const instructions = `dapscope drives debug sessions (debugpy, Delve). Typical flow: debug_launch with breakpoints (waits for the first stop) → debug_inspect_variable / debug_evaluate / debug_variables → debug_step or debug_continue (each waits and returns the stop with source lines and locals) → debug_outcome. No session_id means the active session; no frame_id means the top frame of the stopped thread. Paths are relative to the workspace.`

// extraTools registers tool groups whose engines live in other packages
// (smart inspection, code context); their files add themselves in init.
var extraTools []func(*Server)

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

// ServeStdio serves one client over in/out until in ends or ctx is done.
// Nothing but protocol goes to out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ss := mcpserver.NewStdioServer(s.mcp)
	ss.SetErrorLogger(log.New(slogWriter{s.log}, "", 0))
	err := ss.Listen(ctx, in, out)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// quieter drops mcp-go's per-request info lines unless debug is enabled.
type quieter struct{ h slog.Handler }

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	if l < slog.LevelWarn && !q.h.Enabled(ctx, slog.LevelDebug) {
		return false
	}
	return q.h.Enabled(ctx, l)
}
func (q quieter) Handle(ctx context.Context, r slog.Record) error { return q.h.Handle(ctx, r) }
func (q quieter) WithAttrs(a []slog.Attr) slog.Handler            { return quieter{q.h.WithAttrs(a)} }
func (q quieter) WithGroup(n string) slog.Handler                 { return quieter{q.h.WithGroup(n)} }

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn("mcp stdio", "msg", strings.TrimSpace(string(p)))
	return len(p), nil
}

// --- tool registration ---

// hints are the annotations of a tool.
type hints struct{ readOnly, destructive, idempotent bool }

// toolSpec describes one tool.
type toolSpec struct {
	name, title, desc string
	hints
	// more says how to get what the size cap cut.
	more string
}

// call is one tool invocation as seen by a handler.
type call struct {
	s   *Server
	req mcpgo.CallToolRequest
	n   float64 // progress counter
}

// progress sends a progress notification when the client asked for them.
func (c *call) progress(ctx context.Context, msg string) {
	if c.req.Params.Meta == nil || c.req.Params.Meta.ProgressToken == nil {
		return
	}
	c.n++
	err := c.s.mcp.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
		"progressToken": c.req.Params.Meta.ProgressToken, "progress": c.n, "message": msg,
	})
	if err != nil {
		c.s.log.Debug("progress notification", "err", err)
	}
}

// texter renders a result compactly for the text content.
type texter interface{ text() string }

// addTool registers a tool whose arguments decode strictly into P and whose
// result R is sent as structured content plus its text rendering.
func addTool[P any, R any](s *Server, spec toolSpec, h func(ctx context.Context, c *call, p *P) (*R, error)) {
	in, _ := json.Marshal(inputSchema(reflect.TypeFor[P]()))
	out := outputSchema(reflect.TypeFor[R]())
	out["properties"].(map[string]any)["error"] = errorSchema
	outJSON, _ := json.Marshal(out)
	tool := mcpgo.Tool{Name: spec.name, Title: spec.title, Description: spec.desc, RawInputSchema: in, RawOutputSchema: outJSON}
	tool.Annotations = mcpgo.ToolAnnotation{
		Title: spec.title, ReadOnlyHint: &spec.readOnly, DestructiveHint: &spec.destructive,
		IdempotentHint: &spec.idempotent, OpenWorldHint: new(bool),
	}
	s.mcp.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		raw := req.Params.RawArguments
		if len(raw) == 0 && req.Params.Arguments != nil {
			raw, _ = json.Marshal(req.Params.Arguments)
		}
		var p P
		if err := decodeArgs(raw, &p); err != nil {
			return s.errorResult(err), nil
		}
		start := time.Now()
		s.inflight.Add(1)
		r, err := h(ctx, &call{s: s, req: req}, &p)
		s.inflight.Add(-1)
		s.log.Debug("tool", "name", spec.name, "ms", time.Since(start).Milliseconds(), "err", err)
		if err != nil {
			return s.errorResult(err), nil
		}
		return s.result(r, spec.more), nil
	})
}

// errorSchema: failures (isError) carry {error: {code, field?, message,
// hint?, available_variables?, state?}} (kept short: agents read the list).
var errorSchema = map[string]any{"type": "object", "description": "on isError: {code, field, message, hint, available_variables, state}"}

// result builds a successful tool result within the size cap.
func (s *Server) result(r any, more string) *mcpgo.CallToolResult {
	text := ""
	if t, ok := r.(texter); ok {
		text = t.text()
	}
	text = capText(text, maxTextBytes)
	b, err := json.Marshal(r)
	if err != nil {
		return s.errorResult(fmt.Errorf("encoding the result: %w", err))
	}
	textJSON, _ := json.Marshal(text)
	limit := s.opts.MaxResponseBytes - len(textJSON) - envelopeSlack
	var structured any = json.RawMessage(b)
	if len(b) > limit {
		var v any
		_ = json.Unmarshal(b, &v)
		if more == "" {
			more = "narrow the request (filters, smaller limits, or a variables_reference)"
		}
		notice := "the response was cut to fit " + human(int64(s.opts.MaxResponseBytes)) + "; " + more
		v, omitted := shrinkJSON(v, limit-len(notice)-64)
		if m, ok := v.(map[string]any); ok {
			m["truncated"] = Truncation{Omitted: omitted, Notice: notice}
		}
		structured = v
		tail := "\n[truncated: " + notice + "]"
		text = capText(text, maxTextBytes-len(tail)) + tail
	}
	return &mcpgo.CallToolResult{
		Content:           []mcpgo.Content{mcpgo.NewTextContent(text)},
		StructuredContent: structured,
	}
}

// ToolError is the structured error of a failed tool call.
type ToolError struct {
	Code               string   `json:"code"`
	Field              string   `json:"field,omitempty"`
	Message            string   `json:"message"`
	Hint               string   `json:"hint,omitempty"`
	AvailableVariables []string `json:"available_variables,omitempty"`
	State              string   `json:"state,omitempty"`
}

// Error codes beyond the session and inspect ones.
const (
	CodeCancelled = "CANCELLED"
	CodeInternal  = "INTERNAL"
)

var hintsByCode = map[string]string{
	session.CodeNotPaused:       "the debuggee is not paused: call debug_wait to wait for a stop, or debug_pause",
	session.CodeNotFound:        "list sessions with debug_sessions, or start one with debug_launch",
	session.CodeAdapterExited:   "the session has ended: see debug_outcome and debug_output",
	session.CodeDebuggeeExited:  "the program has ended (exit code or signal in debug_outcome): see debug_output, or run it again with debug_launch",
	session.CodeAdapterError:    "the debug adapter refused the request: check the expression or arguments",
	session.CodeTimeout:         "the adapter did not answer in time: retry with a larger timeout, or debug_pause first",
	session.CodeLaunchFailed:    "check that program/module exists relative to the workspace; see debug_output of the session if one was created",
	session.CodeInvalidArgument: "see the tool's input schema (tools/list)",
	session.CodeLimit:           "free resources (debug_snapshot action=delete, debug_terminate) and retry",
	CodeCancelled:               "the request was cancelled",
}

func toolError(err error) ToolError {
	var se *session.Error
	switch {
	case errors.As(err, &se):
		te := ToolError{Code: se.Code, Field: se.Field, Message: se.Message, Hint: hintsByCode[se.Code]}
		if se.Code == session.CodeNotFound && se.Field != "session_id" {
			te.Hint = ""
		}
		if se.Code == session.CodeNotPaused && (strings.HasSuffix(se.Message, session.StatusCompleted) || strings.HasSuffix(se.Message, session.StatusError) || strings.HasSuffix(se.Message, session.StatusTerminated)) {
			te.Hint = "the program has ended: see debug_outcome and debug_output, or start it again with debug_launch"
		}
		return te
	case errors.Is(err, context.Canceled):
		return ToolError{Code: CodeCancelled, Message: "cancelled", Hint: hintsByCode[CodeCancelled]}
	case errors.Is(err, context.DeadlineExceeded):
		return ToolError{Code: session.CodeTimeout, Message: "timed out", Hint: hintsByCode[session.CodeTimeout]}
	}
	// Typed errors of other packages (inspect.Error, code errors) marshal to
	// {code, message, hint, …}.
	var te ToolError
	if b, jerr := json.Marshal(err); jerr == nil && json.Unmarshal(b, &te) == nil && te.Code != "" && te.Message != "" {
		if te.Hint == "" {
			te.Hint = hintsByCode[te.Code]
		}
		return te
	}
	return ToolError{Code: CodeInternal, Message: err.Error()}
}

// errorResult turns a failed operation into an isError tool result.
func (s *Server) errorResult(err error) *mcpgo.CallToolResult {
	te := boundError(toolError(err))
	var b strings.Builder
	fmt.Fprintf(&b, "ERROR %s", te.Code)
	if te.Field != "" {
		fmt.Fprintf(&b, " (%s)", te.Field)
	}
	fmt.Fprintf(&b, ": %s", te.Message)
	if te.State != "" {
		fmt.Fprintf(&b, " [state: %s]", te.State)
	}
	if te.Hint != "" {
		fmt.Fprintf(&b, "\nhint: %s", te.Hint)
	}
	if len(te.AvailableVariables) > 0 {
		fmt.Fprintf(&b, "\navailable: %s", strings.Join(te.AvailableVariables, ", "))
	}
	r := &mcpgo.CallToolResult{
		Content:           []mcpgo.Content{mcpgo.NewTextContent(capText(b.String(), maxTextBytes))},
		StructuredContent: map[string]any{"error": te},
		IsError:           true,
	}
	return r
}

// --- per-session state ---

// sessState is what the server holds for one debug session.
type sessState struct {
	mu        sync.Mutex
	watches   []*watch
	watchSeq  int
	snapshots map[string]*snapshot
	order     []string
	// Locals captured at the last two stops (for debug_diff without ids).
	prevStop, lastStop *snapshot
	refreshedGen       int
}

// state returns (creating) the server state of a session.
func (s *Server) state(id string) *sessState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.states[id]
	if !ok {
		st = &sessState{snapshots: map[string]*snapshot{}}
		s.states[id] = st
	}
	return st
}

func (s *Server) existingState(id string) *sessState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[id]
}

// dropState forgets a session's state and frees its budget.
func (s *Server) dropState(id string) {
	s.mu.Lock()
	st := s.states[id]
	delete(s.states, id)
	s.mu.Unlock()
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for sid := range st.snapshots {
		s.budget.release(sid)
	}
}

func (s *Server) nextID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%s%d", prefix, s.seq)
}

// session resolves a session id ("" = active).
func (s *Server) session(id string) (*session.Session, error) {
	return s.mgr.Get(strings.TrimSpace(id))
}

// outputBytes is the output held by all live sessions.
func (s *Server) outputBytes() int64 {
	var n int64
	for _, ss := range s.mgr.List() {
		n += int64(ss.OutputSize())
	}
	return n
}

// startStopFollower refreshes watches and stop captures at every stop of a
// session an agent has used — including stops the editor causes.
func (s *Server) startStopFollower() {
	events, cancel := s.mgr.Subscribe()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer cancel()
		for {
			select {
			case <-s.bgCtx.Done():
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.Kind != "stopped" || s.existingState(ev.SessionID) == nil {
					continue
				}
				sess, err := s.mgr.Get(ev.SessionID)
				if err != nil {
					continue
				}
				ctx, done := context.WithTimeout(s.bgCtx, 10*time.Second)
				s.refreshAtStop(ctx, sess)
				done()
			}
		}
	}()
}
