// frames.go: one id per frame for the whole stop, in every adapter. Delve
// and the Node adapter number frames anew on every stackTrace (the same
// frame was 1001, then 1005, then 1009); the earlier ids stay valid until
// the debuggee resumes. The session hands out the first id it saw for each
// (thread, level) of a stop, remembers every id of the stop, and refuses
// an id that is not one of them with FRAME_NOT_FOUND (Delve would evaluate
// in its current frame instead, debugpy called it an evaluation error).

package session

import (
	"context"
	"encoding/json"
	"fmt"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
)

// frameLookupLevels is how deep a frame id that is not known yet is
// looked for (debug_stack hands out at most 200 levels).
const frameLookupLevels = 200

type frameKey struct{ thread, level int }

// frameTable is the frames of one stop.
type frameTable struct {
	gen   int              // the StopCount of the stop
	first map[frameKey]int // the id handed out for each frame
	known map[int]bool     // every id of the stop (the adapter's later ones too)
}

// canonFrames gives the frames of thread (from level start) the ids first
// handed out for them at stop gen, and records their ids. A stale gen (a
// newer stop came while the request was out) records nothing.
func (s *Session) canonFrames(gen, thread, start int, frames []godap.StackFrame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &s.frames
	if gen < t.gen {
		return
	}
	if gen > t.gen || t.first == nil {
		*t = frameTable{gen: gen, first: map[frameKey]int{}, known: map[int]bool{}}
	}
	for i := range frames {
		k := frameKey{thread, start + i}
		t.known[frames[i].Id] = true
		if id, ok := t.first[k]; ok {
			frames[i].Id = id
		} else {
			t.first[k] = frames[i].Id
		}
	}
}

// frameKnown says whether id was handed out at the current stop.
func (s *Session) frameKnown(id int) bool {
	gen := s.StopCount()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frames.gen == gen && s.frames.known[id]
}

// checkFrame refuses a frame id that is not one of the current stop's,
// after looking at the stopped thread's stack once more (an id the editor
// was given is one too). Nothing is checked while the debuggee runs (the
// request then fails as not paused) or on a bridged session (the editor
// numbers its frames).
func (s *Session) checkFrame(ctx context.Context, id int) error {
	if id == 0 || s.bridge != nil || (s.kernel != nil && id == s.kernel.namespace) || s.frameKnown(id) {
		return nil
	}
	thread, err := s.stoppedThread()
	if err != nil {
		return nil
	}
	if _, err := s.StackTrace(ctx, thread, frameLookupLevels); err != nil {
		return err
	}
	if s.frameKnown(id) {
		return nil
	}
	return &errcode.Error{Code: errcode.FrameNotFound, Field: "frame_id",
		Message: fmt.Sprintf("frame %d is not a frame of the current stop (frame ids are valid until the debuggee resumes)", id)}
}

// framesRequest is Request for the commands that name or list frames: a
// frame id is checked first, and a stackTrace's ids are the stop's.
func (s *Session) framesRequest(ctx context.Context, command string, args, out any, call func(out any) error) error {
	switch command {
	case "evaluate", "scopes", "setExpression":
		if err := s.checkFrame(ctx, readFrameArgs(args).FrameID); err != nil {
			return err
		}
		return call(out)
	case "stackTrace":
		if s.bridge != nil {
			return call(out)
		}
		fa := readFrameArgs(args)
		gen := s.StopCount()
		var body godap.StackTraceResponseBody
		if err := call(&body); err != nil {
			return err
		}
		s.canonFrames(gen, fa.ThreadID, fa.StartFrame, body.StackFrames)
		if out == nil {
			return nil
		}
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		return json.Unmarshal(b, out)
	}
	return call(out)
}

// editorFrames records the frames of a stackTrace the editor asked for
// (mux.Options.FramesSeen, on the adapter's read loop): ids the editor
// holds are frames of the stop, for the inspector's smart values too.
func (s *Session) editorFrames(args json.RawMessage, body []byte) {
	if s == nil {
		return
	}
	var fa frameArgs
	_ = json.Unmarshal(args, &fa)
	var r godap.StackTraceResponseBody
	if json.Unmarshal(body, &r) != nil {
		return
	}
	s.canonFrames(s.StopCount(), fa.ThreadID, fa.StartFrame, r.StackFrames)
}
