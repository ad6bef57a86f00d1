// dap.go: a bridged session as a session.Manager session, so MCP agents
// reach the editor's own debug sessions. A dapLink is the DAP adapter end
// of an in-memory pipe whose other end is the session's mux: each request
// frame the mux writes becomes a request to the Editor (command and
// arguments as they are), answered as a DAP
// response with the request's seq (an error as success:false with its
// message); each event the extension's tracker forwards becomes a DAP event
// frame. Events are queued, so the caller of Handle (the editor channel's
// reading goroutine) never waits on the session. A resuming request's response and the events it causes
// travel separately (customRequest's promise, the tracker's notification),
// so the stop of a step can reach the sidecar before the step's response:
// events are held back while a resuming request is in flight and written
// after its response, in the adapter's own order (answer, then stop), so
// the session never takes the late response for a new run.

package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/session"
)

// dapLink translates between a session's mux and the extension.
type dapLink struct {
	b    *Session
	conn net.Conn // the adapter's end of the pipe
	r    *dap.Reader
	w    *dap.Writer
	log  *slog.Logger
	seq  atomic.Int64
	sess *session.Session

	ctx    context.Context // ends the link's calls to the extension
	cancel context.CancelFunc

	mu     sync.Mutex
	queue  [][]byte // event frames not yet written
	wake   chan struct{}
	ending bool // terminated queued: close once the queue is written
	holds  int  // resuming requests in flight: queued events wait for them
	wg     sync.WaitGroup
}

// linkBridged registers b as a session of mgr behind a new dapLink. A
// debug type whose language dapscope has no adapter kind for stays an
// editor-only bridged session (nil, the reason).
func linkBridged(mgr *session.Manager, b *Session, log *slog.Logger) (*dapLink, error) {
	ours, theirs := net.Pipe()
	l := &dapLink{b: b, conn: ours, r: dap.NewReader(ours), w: dap.NewWriter(ours), log: log, wake: make(chan struct{}, 1)}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	sess, err := mgr.Bridge(session.BridgeSpec{Adapter: b.adapter, Name: b.name, DebugType: b.debugType, Conn: theirs})
	if err != nil {
		l.cancel()
		_ = ours.Close()
		_ = theirs.Close()
		return nil, err
	}
	l.sess = sess
	l.wg.Add(2)
	go l.serve()
	go l.write()
	return l, nil
}

// serve answers the mux's requests until the pipe closes.
func (l *dapLink) serve() {
	defer l.wg.Done()
	defer l.close()
	var calls sync.WaitGroup
	defer calls.Wait()
	for {
		env, args, err := dap.NextRequest(l.r, func(err error) { l.log.Warn("bridged session: bad frame from the session", "err", err) })
		if err != nil {
			return
		}
		hold := resuming[env.Command]
		if hold {
			l.mu.Lock()
			l.holds++ // before the editor can see the request, so before its events
			l.mu.Unlock()
		}
		calls.Add(1)
		go func() {
			defer calls.Done()
			l.answer(env, args)
			if hold {
				l.mu.Lock()
				l.holds--
				l.mu.Unlock()
				l.signal()
			}
		}()
	}
}

// resuming are the commands whose response says the debuggee runs again.
var resuming = map[string]bool{"continue": true, "next": true, "stepIn": true, "stepOut": true}

// editorCallTimeout bounds one request in the editor (the session's own
// callers give up sooner); past it the request fails and held events go on.
const editorCallTimeout = 30 * time.Second

// answer runs one request in the editor and writes its response.
func (l *dapLink) answer(env dap.Envelope, args json.RawMessage) {
	var a any
	if len(args) > 0 {
		a = args
	}
	var body json.RawMessage
	ctx, cancel := context.WithTimeout(l.ctx, editorCallTimeout)
	defer cancel()
	err := l.b.Request(ctx, env.Command, a, &body)
	var frame []byte
	if err != nil {
		frame = dap.ErrorResponse(l.nextSeq(), env, errcode.Internal, editorMessage(err))
	} else {
		if len(body) == 0 || string(body) == "null" {
			body = json.RawMessage("{}")
		}
		if env.Command == "stackTrace" {
			body = localFramePaths(body)
		}
		frame, err = dap.SuccessResponse(l.nextSeq(), env, body)
		if err != nil {
			frame = dap.ErrorResponse(l.nextSeq(), env, errcode.Internal, "the editor's response is not JSON: "+err.Error())
		}
	}
	if err := l.w.WriteFrame(frame); err != nil {
		l.log.Debug("bridged session: response not written", "command", env.Command, "err", err)
	}
}

// localFramePaths makes the frames' source paths file paths (LocalPath):
// the session reads source lines and makes paths workspace-relative.
func localFramePaths(body json.RawMessage) json.RawMessage {
	var b map[string]any
	if json.Unmarshal(body, &b) != nil {
		return body
	}
	frames, _ := b["stackFrames"].([]any)
	changed := false
	for _, f := range frames {
		fm, _ := f.(map[string]any)
		src, _ := fm["source"].(map[string]any)
		if p, ok := src["path"].(string); ok && LocalPath(p) != p {
			src["path"] = LocalPath(p)
			changed = true
		}
	}
	if !changed {
		return body
	}
	out, err := json.Marshal(b)
	if err != nil {
		return body
	}
	return out
}

// editorMessage is the editor's own words in err (the debug adapter's
// message when customRequest failed), else err's message.
func editorMessage(err error) string {
	var ee *EditorError
	if errors.As(err, &ee) && ee.Message != "" {
		return ee.Message
	}
	return err.Error()
}

// LocalPath turns a frame's source path into a file path: VS Code hands
// bridged stack traces back with URIs in remote setups
// (vscode-remote://host/path, file:///path, file:///c:/path on Windows).
func LocalPath(p string) string { return LocalPathIn(platform.Host, p) }

// LocalPathIn is LocalPath in a system's path flavour.
func LocalPathIn(f platform.Flavour, p string) string {
	if i := strings.Index(p, "://"); i > 0 && !strings.ContainsAny(p[:i], "/\\") {
		if u, err := url.Parse(p); err == nil && u.Path != "" {
			if fp, ok := f.FromURL(p); ok {
				return fp // file://, a Windows share's host kept
			}
			return f.FromURLPath(u.Path)
		}
	}
	return p
}

func (l *dapLink) nextSeq() int { return int(l.seq.Add(1)) }

// event turns a bridge event into the DAP event frames the session needs.
func (l *dapLink) event(ev Event) {
	switch ev.Kind {
	case "started":
		// VS Code launched it already: the session runs.
		l.push("continued", map[string]any{"threadId": ev.ThreadID, "allThreadsContinued": true})
	case "stopped":
		if len(ev.Body) > 0 {
			l.push("stopped", ev.Body)
		} else {
			l.push("stopped", map[string]any{"reason": ev.Reason, "threadId": ev.ThreadID, "allThreadsStopped": ev.AllThreadsStopped})
		}
	case "continued":
		if len(ev.Body) > 0 {
			l.push("continued", ev.Body)
		} else {
			l.push("continued", map[string]any{"threadId": ev.ThreadID})
		}
	case "event":
		if ev.Event != "" && ev.Event != "stopped" && ev.Event != "continued" && ev.Event != "terminated" {
			l.push(ev.Event, ev.Body)
		}
	case "terminated":
		l.push("terminated", ev.Body)
		l.mu.Lock()
		l.ending = true
		l.mu.Unlock()
		l.signal()
	}
}

// push queues an event frame.
func (l *dapLink) push(name string, body any) {
	raw, err := json.Marshal(body)
	if err != nil || string(raw) == "null" {
		raw = nil
	}
	frame, _ := json.Marshal(dap.Event{Seq: l.nextSeq(), Type: "event", Event: name, Body: raw})
	l.mu.Lock()
	if !l.ending {
		l.queue = append(l.queue, frame)
	}
	l.mu.Unlock()
	l.signal()
}

func (l *dapLink) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// write writes queued events in order; after terminated, it ends the link.
func (l *dapLink) write() {
	defer l.wg.Done()
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-l.wake:
		}
		for {
			l.mu.Lock()
			if l.holds > 0 { // a resuming request's response goes first
				l.mu.Unlock()
				break
			}
			if len(l.queue) == 0 {
				ending := l.ending
				l.mu.Unlock()
				if ending {
					l.close()
					return
				}
				break
			}
			frame := l.queue[0]
			l.queue = l.queue[1:]
			l.mu.Unlock()
			if err := l.w.WriteFrame(frame); err != nil {
				l.log.Debug("bridged session: event not written", "err", err)
				return
			}
		}
	}
}

// close ends the link: the session sees its stream close. Idempotent.
func (l *dapLink) close() {
	l.cancel()
	_ = l.conn.Close()
}

// wait closes the link and waits for its goroutines.
func (l *dapLink) wait() {
	l.close()
	l.wg.Wait()
}

// linkEvent gives an event to b's link, registering b with the manager at
// its first event.
func (br *Bridge) linkEvent(b *Session, ev Event) {
	// b.mu is never held across the manager's calls or with br.mu.
	b.mu.Lock()
	first := !b.linked && ev.Kind != "terminated"
	b.linked = b.linked || first
	b.mu.Unlock()
	if first {
		l, err := linkBridged(br.mgr, b, br.log)
		if err != nil {
			br.log.Info("bridged session not offered to agents", "session", b.id, "type", b.debugType, "err", err)
		} else {
			br.mu.Lock()
			closed := br.closed
			if !closed {
				br.links = append(br.links, l)
				br.linked[l.sess.ID()] = b.id
			}
			br.mu.Unlock()
			if closed { // Close has taken the links already
				l.wait()
				return
			}
			b.mu.Lock()
			b.link = l
			b.mu.Unlock()
		}
	}
	b.mu.Lock()
	l := b.link
	b.mu.Unlock()
	if l != nil {
		l.event(ev)
	}
}
