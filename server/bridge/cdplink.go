// cdplink.go: the link to js-debug's CDP proxy of a bridged session
// (cdp.go uses it), on the Node adapter's CDP connection
// (node.DialClientVia, every hop on loopback): the current pause's call
// frames, followed from Debugger.paused/resumed on the read loop, and
// evaluateOnCallFrame.

package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	nodeadapter "github.com/dapscope/dapscope/server/adapter/node"
)

// cdpFrame is one call frame of the current pause.
type cdpFrame struct {
	id   string // callFrameId
	line int    // 1-based
}

// cdpLink is one connection to a session's CDP proxy.
type cdpLink struct {
	cl *nodeadapter.Client

	mu     sync.Mutex
	frames []cdpFrame // the current pause's call frames; nil while running
}

// dialCDPLink connects to the proxy and starts following pauses. Every
// hop obeys hops (loopback only in production: a websocket redirect
// elsewhere is refused before the proxy's secret path goes anywhere).
func dialCDPLink(ctx context.Context, addr CDPAddress, hops nodeadapter.Hops) (*cdpLink, error) {
	u, err := addr.url()
	if err != nil {
		return nil, err
	}
	l := &cdpLink{}
	cl, err := nodeadapter.DialClientVia(ctx, u, hops, l.event)
	if err != nil {
		msg := err.Error()
		if addr.Path != "" {
			msg = strings.ReplaceAll(msg, addr.Path, "/…") // the path is the proxy's secret
		}
		return nil, fmt.Errorf("connecting to the CDP proxy on %s:%d: %s", addr.Host, addr.Port, msg)
	}
	l.cl = cl
	// Live pauses first, then Debugger.enable, which makes js-debug's proxy
	// replay the current pause (a plain V8 inspector has no JsDebug domain
	// and reports pauses once Debugger is enabled).
	_, _ = cl.Call(ctx, "JsDebug.subscribe", map[string]any{"events": []string{"Debugger.paused", "Debugger.resumed"}})
	if _, err := cl.Call(ctx, "Debugger.enable", map[string]any{}); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// event follows the pauses (on the connection's read loop).
func (l *cdpLink) event(method string, params []byte) {
	switch method {
	case "Debugger.paused":
		var p struct {
			CallFrames []struct {
				CallFrameID string `json:"callFrameId"`
				Location    struct {
					LineNumber int `json:"lineNumber"`
				} `json:"location"`
			} `json:"callFrames"`
		}
		if json.Unmarshal(params, &p) != nil {
			return
		}
		frames := make([]cdpFrame, len(p.CallFrames))
		for i, f := range p.CallFrames {
			frames[i] = cdpFrame{id: f.CallFrameID, line: f.Location.LineNumber + 1}
		}
		l.mu.Lock()
		l.frames = frames
		l.mu.Unlock()
	case "Debugger.resumed":
		l.mu.Lock()
		l.frames = nil
		l.mu.Unlock()
	}
}

// call sends one CDP command (out: nil to drop the result).
func (l *cdpLink) call(ctx context.Context, method string, params, out any) error {
	raw, err := l.cl.Call(ctx, method, params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// topFrame is the current pause's top call frame, if paused.
func (l *cdpLink) topFrame() (cdpFrame, bool) {
	if l.cl.Closed() {
		return cdpFrame{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.frames) == 0 {
		return cdpFrame{}, false
	}
	return l.frames[0], true
}

// evaluateOn evaluates expr in a call frame (checked: under V8's
// side-effect check) and returns its value as DAP's evaluate would for the
// "clipboard" context: a string as it is, anything else as JSON. ok is
// false when V8 could not run it at all (the caller may take the other
// path); an exception in the expression is an error.
func (l *cdpLink) evaluateOn(ctx context.Context, frame cdpFrame, expr string, checked bool) (result string, ok bool, err error) {
	var res struct {
		Result struct {
			Type        string          `json:"type"`
			Value       json.RawMessage `json:"value"`
			Description string          `json:"description"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"callFrameId": frame.id, "expression": expr, "returnByValue": true, "silent": true}
	if checked {
		params["throwOnSideEffect"] = true
	}
	if d, ok := ctx.Deadline(); ok {
		// V8 ends the evaluation itself when the caller stops waiting (a
		// getter on the path may loop), as js-debug's own evaluate would.
		params["timeout"] = max(100, time.Until(d).Milliseconds()-100)
	}
	if err := l.call(ctx, "Debugger.evaluateOnCallFrame", params, &res); err != nil {
		return "", false, err
	}
	if e := res.ExceptionDetails; e != nil {
		msg := e.Text
		if e.Exception != nil && e.Exception.Description != "" {
			msg = e.Exception.Description
		}
		return "", true, errors.New(msg)
	}
	var s string
	if json.Unmarshal(res.Result.Value, &s) == nil {
		return s, true, nil
	}
	if len(res.Result.Value) > 0 {
		return string(res.Result.Value), true, nil
	}
	return res.Result.Description, true, nil
}

func (l *cdpLink) close() { _ = l.cl.Close() }
