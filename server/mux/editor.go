// editor.go: the primary client. The editor's bytes go upstream untouched;
// the sidecar intercepts only "dapscope/…" requests (answered here), cancel
// requests the adapter cannot honour, and requests after the adapter died.

package mux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
)

type editorConn struct {
	m    *Mux
	conn io.ReadWriteCloser
	w    *dap.Writer

	out        outbox
	mu         sync.Mutex
	pending    map[int]pendingReq // editor requests by seq, until answered
	sawEnd     bool               // editor already got a terminated event
	closed     bool
	handlers   sync.WaitGroup
	ctx        context.Context
	cancelCtx  context.CancelFunc
	writeErrMu sync.Once
}

// ServeEditor attaches conn as the primary client and serves it until the
// editor disconnects or ctx ends. Only one editor may be attached.
func (m *Mux) ServeEditor(ctx context.Context, conn io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	ed := &editorConn{m: m, conn: conn, w: dap.NewWriter(conn), pending: map[int]pendingReq{}, ctx: ctx, cancelCtx: cancel}
	ed.out.w = ed.writeNow
	m.mu.Lock()
	if m.editor != nil {
		m.mu.Unlock()
		cancel()
		return errors.New("an editor is already attached")
	}
	m.editor = ed
	m.mu.Unlock()

	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	err := ed.readLoop()
	stop()
	cancel()
	ed.handlers.Wait()
	m.mu.Lock()
	if m.editor == ed {
		m.editor = nil
	}
	m.mu.Unlock()
	ed.mu.Lock()
	ed.closed = true
	ed.mu.Unlock()
	_ = conn.Close()
	return err
}

func (ed *editorConn) readLoop() error {
	r := dap.NewReader(ed.conn)
	for {
		body, err := r.ReadFrame()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || ed.ctx.Err() != nil {
				return nil
			}
			ed.m.log.Warn("closing editor connection", "reason", err)
			return err
		}
		env, err := dap.Peek(body)
		if err != nil {
			// The framing is intact, so the stream can go on: drop this
			// message with a logged reason and keep the session alive.
			ed.m.log.Warn("dropping malformed message from editor", "err", err)
			continue
		}
		if !utf8.Valid(body) {
			// JSON must be UTF-8 (RFC 8259); debugpy answers nothing to such
			// a request, so the sidecar answers it instead of forwarding it.
			ed.invalidUTF8(env, body)
			continue
		}
		switch env.Type {
		case "request":
			ed.request(env, body)
		case "response": // answer to a reverse request: upstream as is
			ed.upstream(env, body)
		default:
			ed.m.log.Warn("dropping unexpected message from editor", "type", env.Type)
		}
	}
}

// invalidUTF8 refuses a message that is not valid UTF-8: a request gets an
// error response naming the first bad byte; anything else is dropped.
func (ed *editorConn) invalidUTF8(env dap.Envelope, body []byte) {
	off := 0
	for off < len(body) {
		r, n := utf8.DecodeRune(body[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	if env.Type != "request" {
		ed.m.log.Warn("dropping message from editor that is not valid UTF-8", "type", env.Type, "offset", off)
		return
	}
	ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.InvalidArgument,
		fmt.Sprintf("%s request is not valid UTF-8 (first bad byte at offset %d of the message body); it was not forwarded to the debug adapter", env.Command, off)))
}

func (ed *editorConn) request(env dap.Envelope, body []byte) {
	m := ed.m
	if strings.HasPrefix(env.Command, CustomPrefix) {
		ed.handlers.Add(1)
		go ed.custom(env, body)
		return
	}
	m.mu.Lock()
	dead, deadErr := m.dead, m.deadErr
	supportsCancel := m.state.SupportsCancel
	m.mu.Unlock()
	if dead {
		if env.Command == "disconnect" || env.Command == "terminate" {
			ed.reply(dap.SuccessResponse(ed.nextSeq(), env, nil))
			return
		}
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.AdapterExited, "debug adapter exited: "+deadErr.Error()))
		return
	}
	if env.Command == "cancel" && !supportsCancel {
		// debugpy never answers cancel and then hangs the session: never forward it.
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.UnknownCommand, "cancel is not supported by this debug adapter"))
		return
	}
	// The only editor requests decoded beyond the envelope: launch (to know
	// the program) and launch/attach for the sidecar's own options.
	var a struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	rw := m.opts.Rewriter
	switch {
	case env.Command == "launch", env.Command == "attach", env.Command == "stackTrace" && m.opts.FramesSeen != nil:
		_ = json.Unmarshal(body, &a)
	default:
		if rw != nil {
			_ = json.Unmarshal(body, &a)
		}
	}
	if (env.Command == "launch" || env.Command == "attach") && m.opts.CheckLaunch != nil {
		if err := m.opts.CheckLaunch(env.Command, a.Arguments); err != nil {
			ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.InvalidArgument, err.Error()))
			return
		}
	}
	if (env.Command == "launch" || env.Command == "attach") && m.opts.EditLaunch != nil {
		if na := m.opts.EditLaunch(env.Command, a.Arguments); na != nil {
			if nb, ok := withArguments(body, na); ok {
				body, a.Arguments = nb, na
			}
		}
	}
	req := pendingReq{command: env.Command}
	if rw != nil && rw.Wants(env.Command, a.Arguments) {
		req.rewrite, req.args = true, a.Arguments
	}
	if env.Command == "stackTrace" {
		req.args = a.Arguments // for FramesSeen
	}
	ed.mu.Lock()
	ed.pending[env.Seq] = req
	ed.mu.Unlock()
	m.mu.Lock()
	if env.Command == "launch" {
		m.state.Program = programOf(a.Arguments)
	}
	m.noteResumeLocked(env.Command, env.Seq)
	m.noteChangeLocked(env.Command)
	m.mu.Unlock()
	if env.Command == "disconnect" && m.opts.BeforeDisconnect != nil {
		m.opts.BeforeDisconnect(ed.ctx)
	}
	ed.upstream(env, body)
}

func (ed *editorConn) upstream(env dap.Envelope, body []byte) {
	if err := ed.m.upW.WriteFrame(body); err != nil {
		ed.m.log.Debug("forwarding editor message", "command", env.Command, "err", err)
		if env.Type == "request" && ed.takePending(env.Seq) {
			ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.AdapterExited, "debug adapter unavailable: "+err.Error()))
		}
	}
}

// custom answers a "dapscope/…" request; panics become error responses.
func (ed *editorConn) custom(env dap.Envelope, body []byte) {
	defer ed.handlers.Done()
	var req struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(body, &req)
	defer func() {
		if p := recover(); p != nil {
			ed.m.log.Error("panic in custom request", "command", env.Command, "panic", p)
			ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.Internal, "internal error in "+env.Command))
		}
	}()
	if ed.m.opts.Handler == nil {
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.UnknownCommand, "unknown command "+env.Command))
		return
	}
	out, err := ed.m.opts.Handler(ed.ctx, env.Command, req.Arguments)
	if err != nil {
		code := errcode.InvalidArgument
		if ce := errcode.As(err); ce != nil {
			code = ce.Code
		}
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, code, err.Error()))
		return
	}
	resp, err := dap.SuccessResponse(ed.nextSeq(), env, out)
	if err == nil && len(resp) > dap.MaxFrame {
		err = errors.New("response exceeds 16 MiB")
	}
	if err != nil {
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.LimitExceeded, env.Command+": "+err.Error()))
		return
	}
	ed.write(resp)
}

func (ed *editorConn) nextSeq() int {
	ed.m.mu.Lock()
	defer ed.m.mu.Unlock()
	ed.m.outSeq++
	return ed.m.outSeq
}

func (ed *editorConn) reply(b []byte, err error) {
	if err == nil {
		ed.write(b)
	}
}

// write queues one frame for the editor, in order behind any response
// still being rewritten.
func (ed *editorConn) write(body []byte) {
	if body == nil {
		return
	}
	ed.out.send(body)
}

// writeNow sends one frame to the editor (the outbox's writer); a broken
// editor connection is logged once and otherwise ignored (the read loop
// notices the close).
func (ed *editorConn) writeNow(body []byte) {
	ed.mu.Lock()
	closed := ed.closed
	ed.mu.Unlock()
	if closed {
		return
	}
	if err := ed.w.WriteFrame(body); err != nil {
		ed.writeErrMu.Do(func() { ed.m.log.Warn("writing to editor", "err", err) })
	}
}

// CloseEditor closes the attached editor's connection, if any (the session
// is being shut down by the sidecar, not by the editor).
func (m *Mux) CloseEditor() {
	m.mu.Lock()
	ed := m.editor
	m.mu.Unlock()
	if ed != nil {
		ed.cancelCtx()
		_ = ed.conn.Close()
	}
}

// markEnded records that the editor got the adapter's terminated event.
func (ed *editorConn) markEnded() {
	ed.mu.Lock()
	ed.sawEnd = true
	ed.mu.Unlock()
}

// pendingReq is an editor request waiting for the adapter's answer.
type pendingReq struct {
	command string
	rewrite bool            // the Rewriter wants its response
	args    json.RawMessage // the request's arguments, kept for the Rewriter
}

// takeRequest removes seq from the pending set and returns the request.
func (ed *editorConn) takeRequest(seq int) (pendingReq, bool) {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	r, ok := ed.pending[seq]
	delete(ed.pending, seq)
	return r, ok
}

// takePending removes seq from the pending set; only the caller that gets
// true may answer it, so a request is never answered twice.
func (ed *editorConn) takePending(seq int) bool {
	_, ok := ed.takeRequest(seq)
	return ok
}

// adapterGone answers every pending editor request with an error and tells
// the editor the session ended.
func (ed *editorConn) adapterGone(err error) {
	ed.mu.Lock()
	pending := ed.pending
	ed.pending = map[int]pendingReq{}
	sawEnd := ed.sawEnd
	ed.mu.Unlock()
	for seq, req := range pending {
		cmd := req.command
		env := dap.Envelope{Seq: seq, Type: "request", Command: cmd}
		if cmd == "disconnect" || cmd == "terminate" {
			ed.reply(dap.SuccessResponse(ed.nextSeq(), env, nil))
			continue
		}
		ed.write(dap.ErrorResponse(ed.nextSeq(), env, errcode.AdapterExited, "debug adapter exited: "+err.Error()))
	}
	if !sawEnd {
		b, _ := json.Marshal(dap.Event{Seq: ed.nextSeq(), Type: "event", Event: "terminated"})
		ed.write(b)
	}
}

// withArguments is the request message body with its "arguments" replaced
// (every other member kept).
func withArguments(body []byte, args json.RawMessage) ([]byte, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, false
	}
	m["arguments"] = args
	b, err := json.Marshal(m)
	return b, err == nil
}
