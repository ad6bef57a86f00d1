// This file holds the connection to js-debug's CDP proxy of a bridged
// session (bridgecdp.go uses it): the websocket, one CDP call at a time per
// caller, the current pause's call frames (Debugger.paused/resumed), and
// evaluateOnCallFrame.

package editor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// cdpFrame is one call frame of the current pause.
type cdpFrame struct {
	id   string // callFrameId
	line int    // 1-based
}

// cdpLink is one connection to a session's CDP proxy. One goroutine
// writes at a time (coder/websocket serialises writes); one reads.
type cdpLink struct {
	ws   *websocket.Conn
	done chan struct{}

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan cdpReply
	frames  []cdpFrame // the current pause's call frames; nil while running
	err     error      // why the read loop ended
}

type cdpReply struct {
	result json.RawMessage
	err    error
}

// maxCDPMessage bounds one message from the proxy (a probe's answer is at
// most a few MB).
const maxCDPMessage = 64 << 20

// dialCDPLink connects to the proxy and starts following pauses.
func dialCDPLink(ctx context.Context, addr CDPAddress) (*cdpLink, error) {
	u, err := addr.url()
	if err != nil {
		return nil, err
	}
	ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		msg := err.Error()
		if addr.Path != "" {
			msg = strings.ReplaceAll(msg, addr.Path, "/…") // the path is the proxy's secret
		}
		return nil, fmt.Errorf("connecting to the CDP proxy on %s:%d: %s", addr.Host, addr.Port, msg)
	}
	ws.SetReadLimit(maxCDPMessage)
	l := &cdpLink{ws: ws, done: make(chan struct{}), pending: map[int64]chan cdpReply{}}
	go l.readLoop()
	// Live pauses first, then Debugger.enable, which makes js-debug's proxy
	// replay the current pause (a plain V8 inspector has no JsDebug domain
	// and reports pauses once Debugger is enabled).
	_ = l.call(ctx, "JsDebug.subscribe", map[string]any{"events": []string{"Debugger.paused", "Debugger.resumed"}}, nil)
	if err := l.call(ctx, "Debugger.enable", map[string]any{}, nil); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

func (l *cdpLink) readLoop() {
	defer close(l.done)
	for {
		_, b, err := l.ws.Read(context.Background())
		if err != nil {
			l.finish(err)
			return
		}
		var m struct {
			ID     int64           `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		switch {
		case m.ID != 0:
			l.mu.Lock()
			ch := l.pending[m.ID]
			delete(l.pending, m.ID)
			l.mu.Unlock()
			if ch != nil {
				r := cdpReply{result: m.Result}
				if m.Error != nil {
					r.err = errors.New(m.Error.Message)
				}
				ch <- r
			}
		case m.Method == "Debugger.paused":
			var p struct {
				CallFrames []struct {
					CallFrameID string `json:"callFrameId"`
					Location    struct {
						LineNumber int `json:"lineNumber"`
					} `json:"location"`
				} `json:"callFrames"`
			}
			if json.Unmarshal(m.Params, &p) != nil {
				continue
			}
			frames := make([]cdpFrame, len(p.CallFrames))
			for i, f := range p.CallFrames {
				frames[i] = cdpFrame{id: f.CallFrameID, line: f.Location.LineNumber + 1}
			}
			l.mu.Lock()
			l.frames = frames
			l.mu.Unlock()
		case m.Method == "Debugger.resumed":
			l.mu.Lock()
			l.frames = nil
			l.mu.Unlock()
		}
	}
}

func (l *cdpLink) finish(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
	l.frames = nil
	for id, ch := range l.pending {
		ch <- cdpReply{err: fmt.Errorf("the CDP proxy closed: %w", err)}
		delete(l.pending, id)
	}
}

// call sends one CDP command and waits for its answer (out: nil to drop it).
func (l *cdpLink) call(ctx context.Context, method string, params, out any) error {
	ch := make(chan cdpReply, 1)
	l.mu.Lock()
	if l.err != nil {
		l.mu.Unlock()
		return fmt.Errorf("the CDP proxy closed: %w", l.err)
	}
	l.nextID++
	id := l.nextID
	l.pending[id] = ch
	l.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err == nil {
		err = l.ws.Write(ctx, websocket.MessageText, msg)
	}
	if err != nil {
		l.forget(id)
		return err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return fmt.Errorf("%s: %w", method, r.err)
		}
		if out != nil {
			return json.Unmarshal(r.result, out)
		}
		return nil
	case <-ctx.Done():
		l.forget(id)
		return ctx.Err()
	}
}

func (l *cdpLink) forget(id int64) {
	l.mu.Lock()
	delete(l.pending, id)
	l.mu.Unlock()
}

// topFrame is the current pause's top call frame, if paused.
func (l *cdpLink) topFrame() (cdpFrame, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.frames) == 0 {
		return cdpFrame{}, false
	}
	return l.frames[0], true
}

// evaluateOn evaluates expr in a call frame and returns its value as DAP's
// evaluate would for the "clipboard" context: a string as it is, anything
// else as JSON. ok is false when V8 could not run it at all (the caller may
// take the other path); an exception in the expression is an error.
func (l *cdpLink) evaluateOn(ctx context.Context, frame cdpFrame, expr string) (result string, ok bool, err error) {
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

func (l *cdpLink) close() {
	_ = l.ws.CloseNow()
	<-l.done
}
