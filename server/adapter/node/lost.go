// lost.go: an inspector connection that ends under a live program. Only
// the adapter ends the connection of a program it still debugs (at the
// program's end, at disconnect): when it ends otherwise (node closed it,
// a network error, a message the websocket could not take), the session
// is told it was lost, with the reason, in an InspectorLostEvent before
// exited and terminated, and a launched node that is still running is
// ended (nothing can debug it any more). A node that died (killed,
// crashed) closes the connection too: its exit status tells that story.
// Also the pause of a thread whose message was too large to read.

package node

import (
	"fmt"
	"time"

	"github.com/chromedp/cdproto/debugger"
)

// InspectorLostEvent is the event name of a lost inspector connection
// (dapscope's own: the session reads it into the outcome).
const InspectorLostEvent = "dapscopeInspectorLost"

// InspectorLost is the body of an InspectorLostEvent.
type InspectorLost struct {
	Reason string `json:"reason"`           // why the connection ended
	Killed bool   `json:"killed,omitempty"` // the adapter ended the launched node
}

// oversizedEvent is the event queued for an event too large to read
// (cdp.go); its params are {"method", "size"}.
const oversizedEvent = "dapscope.oversized"

// diedGrace is how long a node whose connection ended has to be seen
// exiting before the connection counts as lost.
const diedGrace = 2 * time.Second

// connectionEnded decides, once c's event stream has ended, whether the
// connection was lost under a live program, and reports it.
func (s *Server) connectionEnded(c *conn) {
	select {
	case <-s.programDone:
		return
	default:
	}
	s.mu.Lock()
	closing, p, attached := s.closing, s.proc, s.attached
	reason := c.err
	s.mu.Unlock()
	if closing || reason == nil {
		return
	}
	lost := InspectorLost{Reason: reason.Error()}
	if p != nil {
		select {
		case <-p.done:
			if p.signaled() {
				return // killed or crashed: exited says so
			}
		case <-time.After(diedGrace):
			lost.Killed = true
		}
	} else if !attached {
		return
	}
	s.log.Warn("the inspector connection was lost", "reason", lost.Reason)
	s.event(InspectorLostEvent, lost)
	if lost.Killed {
		p.kill()
	}
}

// oversizedEvent handles an event too large to read. A pause cannot be
// shown without its frames: the thread is resumed, and a notice says why.
func (s *Server) oversizedEvent(th *thread, params []byte) {
	var e struct {
		Method string `json:"method"`
		Size   int64  `json:"size"`
	}
	_ = decode(params, &e)
	s.log.Warn("an inspector event too large to read", "method", e.Method, "bytes", e.Size)
	if e.Method != debugger.Paused.Method {
		return
	}
	s.resumeQuietly(th)
	s.output("important", fmt.Sprintf("dapscope: %s paused, but the pause could not be read (%d MB, more than %d MB: a value in its frames is too large); it was resumed\n",
		th.name, e.Size>>20, maxMessage>>20))
}
