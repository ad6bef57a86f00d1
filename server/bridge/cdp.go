// cdp.go: the CDP shortcut of bridged js-debug sessions. Every DAP
// request the sidecar sends through VS Code's customRequest crosses the
// workbench (0.05–1 s per request in e2e, against ~20 ms in js-debug
// itself). js-debug offers a CDP proxy per session (the extension asks for
// it with extension.js-debug.requestCDPProxy and reports its address, bridge
// event kind "cdp"); through it (cdplink.go) the JavaScript probe's
// evaluate in the top frame goes straight to V8 (Debugger.evaluateOnCallFrame),
// a browse filter's with V8's side-effect check (which no other path of a
// bridged session offers: there such an evaluate is refused).
// V8's top call frame of the current pause stands for the editor's top
// frame until the editor's own stackTrace tells its id (then the lines must
// agree). Anything else, and any failure of the proxy, takes the
// customRequest path.

package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
	nodeadapter "github.com/dapscope/dapscope/server/adapter/node"
)

// CDPAddress is where js-debug's CDP proxy of a session listens.
type CDPAddress struct {
	Host string `json:"host"`
	Port int    `json:"port"`
	Path string `json:"path,omitempty"` // a secret of the proxy: never logged
}

// url is the proxy's websocket URL, loopback only.
func (a CDPAddress) url() (string, error) {
	ip := net.ParseIP(a.Host)
	if a.Host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("CDP proxy host %q is not loopback", a.Host)
	}
	if a.Port <= 0 || a.Port > 65535 {
		return "", fmt.Errorf("CDP proxy port %d", a.Port)
	}
	path := a.Path
	if path != "" && path[0] != '/' {
		path = "/" + path
	}
	return "ws://" + net.JoinHostPort(a.Host, strconv.Itoa(a.Port)) + path, nil
}

// cdpTopFrame is the frame id a bridged session with a linked CDP proxy
// gives for "the top frame" before the editor's own stackTrace has told it
// js-debug's id (KnownTopFrame): V8's top call frame of the current pause is
// the top frame js-debug shows. Never a DAP frame id (they are ≥ 0); a
// request carrying it that does not go through the proxy gets the editor's
// id instead (realTopFrame).
const cdpTopFrame = -1

// evaluateViaCDP runs a probe evaluate (context clipboard) in the editor's
// top frame through the CDP proxy when the proxy's top call frame is that
// frame (same line), with V8's side-effect check when the request asks for
// it (dapscope's "throwOnSideEffect": a browse filter). done is false when
// it did not run there: the caller takes the customRequest path (or, for a
// checked one, refuses it).
func (b *Session) evaluateViaCDP(ctx context.Context, args, out any) (done bool, err error) {
	b.mu.Lock()
	link, top, line, known := b.cdp, b.top, b.topLine, b.topKnown && b.stopped
	if !b.stopped {
		link = nil
	}
	b.mu.Unlock()
	if link == nil {
		return false, nil
	}
	var a struct {
		Expression        string `json:"expression"`
		FrameID           *int   `json:"frameId"`
		Context           string `json:"context"`
		ThrowOnSideEffect bool   `json:"throwOnSideEffect"`
	}
	raw, err := json.Marshal(args)
	if err != nil || json.Unmarshal(raw, &a) != nil || a.Context != "clipboard" || a.FrameID == nil {
		return false, nil
	}
	f, ok := link.topFrame()
	switch {
	case !ok:
		return false, nil
	case *a.FrameID == cdpTopFrame: // V8's top frame is the editor's
	case !known || line == 0 || *a.FrameID != top || f.line != line:
		return false, nil
	}
	res, ran, err := link.evaluateOn(ctx, f, a.Expression, a.ThrowOnSideEffect)
	if !ran {
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		return false, nil // e.g. the proxy went away: customRequest
	}
	if err != nil {
		return true, fmt.Errorf("evaluate: %w", err)
	}
	if out == nil {
		return true, nil
	}
	body, err := json.Marshal(map[string]any{"result": res, "variablesReference": 0})
	if err != nil {
		return true, err
	}
	return true, json.Unmarshal(body, out)
}

// sideEffectChecked reports an evaluate that asks for V8's side-effect
// check (dapscope's "throwOnSideEffect", inspect.EvalRequest).
func sideEffectChecked(args any) bool {
	raw, err := json.Marshal(args)
	if err != nil || !strings.Contains(string(raw), `"throwOnSideEffect"`) {
		return false
	}
	var a struct {
		ThrowOnSideEffect bool `json:"throwOnSideEffect"`
	}
	return json.Unmarshal(raw, &a) == nil && a.ThrowOnSideEffect
}

// linkCDP connects a bridged node session to its CDP proxy (once).
func (br *Bridge) linkCDP(b *Session, addr CDPAddress) {
	b.mu.Lock()
	if b.cdp != nil || b.status == "completed" || b.kind() != adapter.Node {
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(br.ctx, 10*time.Second)
	l, err := dialCDPLink(ctx, addr, nodeadapter.Hops{}) // loopback only
	cancel()
	if err != nil {
		br.log.Info("bridge: no CDP shortcut, requests go through the editor", "session", b.id, "err", err)
		return
	}
	b.mu.Lock()
	if b.cdp != nil || b.status == "completed" {
		b.mu.Unlock()
		l.close()
		return
	}
	b.cdp = l
	b.mu.Unlock()
	br.log.Info("bridge: evaluates in the top frame go through js-debug's CDP proxy", "session", b.id, "host", addr.Host, "port", addr.Port)
}

// unlinkCDP closes a bridged session's CDP link, if any.
func (b *Session) unlinkCDP() {
	b.mu.Lock()
	l := b.cdp
	b.cdp = nil
	b.mu.Unlock()
	if l != nil {
		l.close()
	}
}

// cdpTop is V8's top call frame while the session is stopped and its CDP
// proxy is linked.
func (b *Session) cdpTop() (cdpFrame, bool) {
	b.mu.Lock()
	link, stopped := b.cdp, b.stopped
	b.mu.Unlock()
	if link == nil || !stopped {
		return cdpFrame{}, false
	}
	return link.topFrame()
}

// withRealTopFrame replaces cdpTopFrame in a request's frameId with the
// editor's id of the top frame (learnt from its stackTrace, or asked).
func (b *Session) withRealTopFrame(ctx context.Context, command string, args any) (any, error) {
	if command != "evaluate" && command != "scopes" {
		return args, nil
	}
	raw, err := json.Marshal(args)
	if err != nil || !strings.Contains(string(raw), `"frameId":-1`) {
		return args, nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m["frameId"] != float64(cdpTopFrame) {
		return args, nil
	}
	b.mu.Lock()
	tid := b.threadID
	b.mu.Unlock()
	id, ok := b.waitTopFrame(ctx, tid)
	if !ok {
		var body struct {
			StackFrames []struct {
				ID int `json:"id"`
			} `json:"stackFrames"`
		}
		if err := b.Request(ctx, "stackTrace", map[string]any{"threadId": tid, "levels": 1}, &body); err != nil {
			return nil, err
		}
		if len(body.StackFrames) == 0 {
			return nil, errors.New("the stopped thread has no frames")
		}
		id = body.StackFrames[0].ID
	}
	m["frameId"] = id
	return m, nil
}
