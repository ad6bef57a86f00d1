// loaderror.go: a program that failed before its first statement (the
// Node adapter's load error: a syntax error, an import that does not
// resolve) goes into the outcome as its error, with the file and line in
// the message and node's own report as the traceback.

package session

import (
	"encoding/json"
	"fmt"

	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
)

func (s *Session) onLoadError(body json.RawMessage) {
	var le adapter.LoadError
	if json.Unmarshal(body, &le) != nil || le.ErrorType == "" {
		return
	}
	msg := le.Message
	if le.Code != "" {
		msg = "[" + le.Code + "] " + msg
	}
	if le.Path != "" && le.Line > 0 {
		msg = fmt.Sprintf("%s (at %s:%d, before the program's first statement)", msg, s.rel(le.Path), le.Line)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.outcomeLocked()
	if o.ErrorType != "" {
		return
	}
	o.ErrorType, o.ErrorMessage = le.ErrorType, clip.Bytes.Head(msg, 1000)
	o.Traceback = clip.Bytes.Head(le.Text, maxTraceback)
	o.Truncated = o.Truncated || len(le.Text) > maxTraceback
	s.notifyLocked()
}
