// evaloutput.go: what an evaluation printed. An adapter sends a program's
// output as DAP output events. A kernel session sends the IOPub stream
// output of dapscope's own request just before its response; debugpy's
// launcher relays the program's stdout pipe apart from the response, so
// that output may come a little after it. EvaluateOutput subscribes to
// the adapter's events for the call and keeps the output events that
// arrive before the response (the mux delivers an event to every
// subscription before it routes a later response) and, for a call that
// prints, for a short wait after it (lateOutput), bounded.

package session

import (
	"context"
	"encoding/json"
	"regexp"
	"time"
	"unicode/utf8"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/mux"
)

// EvalOutputMax bounds the output an evaluation brings back (its head).
const EvalOutputMax = 16 << 10

// EvalOutput is what the program printed while an evaluation ran.
type EvalOutput struct {
	// Text is the output in order (stdout and stderr), at most
	// EvalOutputMax bytes.
	Text string `json:"text,omitempty"`
	// Stderr: some of it went to stderr.
	Stderr bool `json:"stderr,omitempty"`
	// Bytes is how much was printed in all; Cut says Text is only its head
	// (Lost: some output events never reached the session).
	Bytes int  `json:"bytes,omitempty"`
	Cut   bool `json:"cut,omitempty"`
	Lost  bool `json:"lost,omitempty"`
}

// EvaluateOutput is Evaluate with what the program printed while the
// evaluation ran (also on an error: an expression may print and raise).
// Output of other threads in that time is included: a stopped program's
// threads are paused, so it is normally the expression's own.
func (s *Session) EvaluateOutput(ctx context.Context, expr string, frameID int, evalContext string) (godap.EvaluateResponseBody, EvalOutput, error) {
	sub := s.mux.Subscribe(1024)
	defer sub.Close()
	c := evalCollector{s: s}
	// Read while the evaluation runs (a stop or other event the mux must
	// deliver never waits for room), then what the mux delivered before
	// the response.
	answered, read := make(chan struct{}), make(chan bool)
	go func() {
		done := false // answered: read only what is already queued
		for {
			var ev *dap.Event
			ok := true
			if done {
				select {
				case ev, ok = <-sub.C:
				default:
					read <- true
					return
				}
			} else {
				select {
				case ev, ok = <-sub.C:
				case <-answered:
					done = true
					continue
				}
			}
			if !ok {
				read <- false
				return
			}
			c.add(ev)
		}
	}()
	b, err := s.Evaluate(ctx, expr, frameID, evalContext)
	close(answered)
	if open := <-read; open && s.lateOutput(expr) {
		c.waitLate(ctx, sub)
	}
	return b, c.result(sub.Dropped() > 0), err
}

// Waits for output relayed apart from the response (debugpy's launcher
// reads the program's stdout pipe): up to lateOutputFirst for the first
// of it, then until none came for lateOutputQuiet, lateOutputMax in all.
const (
	lateOutputFirst = 75 * time.Millisecond
	lateOutputQuiet = 25 * time.Millisecond
	lateOutputMax   = 500 * time.Millisecond
)

// lateOutput says whether to wait for output of expr after its response:
// not on a kernel session (its adapter sends the request's output just
// before the response) nor on node (V8's console events come before the
// evaluation's result), and only for an expression that calls something
// that prints (print, pprint, display, help, show, info, a write, a log
// or warning call): waiting after every call would cost each evaluation
// the whole wait. Output of another call still comes back when it arrives
// before the response.
func (s *Session) lateOutput(expr string) bool {
	if s.kind == adapter.Kernel || s.kind == adapter.Node {
		return false
	}
	return printingCall.MatchString(expr)
}

// printingCall matches a call of something that prints.
var printingCall = regexp.MustCompile(`(?i)\b(print\w*|pprint|display|help|show|info|write|writelines|log|debug|warn\w*|error|exception|critical|dis|tb)\s*\(`)

// evalCollector gathers an evaluation's output events.
type evalCollector struct {
	s    *Session
	out  EvalOutput
	text []byte
}

// add takes one event; it reports whether it was the program's output.
func (c *evalCollector) add(ev *dap.Event) bool {
	if ev.Event != "output" {
		return false
	}
	var o struct {
		Category string `json:"category"`
		Output   string `json:"output"`
		// Dropped: a kernel session's note that it kept only the head
		// of the output (this event says so).
		Dropped int `json:"dapscopeDropped"`
	}
	if json.Unmarshal(ev.Body, &o) != nil {
		return false
	}
	if o.Dropped > 0 {
		c.out.Bytes += o.Dropped
		c.out.Cut = true
		return true
	}
	cat := c.s.driver.OutputCategory(o.Category)
	if cat == "" || cat == "debugger" {
		return false
	}
	c.out.Bytes += len(o.Output)
	c.out.Stderr = c.out.Stderr || cat == "stderr"
	if len(c.text) <= EvalOutputMax {
		c.text = append(c.text, o.Output...)
	}
	return true
}

func (c *evalCollector) waitLate(ctx context.Context, sub *mux.Subscription) {
	all := time.NewTimer(lateOutputMax)
	defer all.Stop()
	quiet := time.NewTimer(lateOutputFirst)
	defer quiet.Stop()
	if c.out.Bytes > 0 {
		quiet.Reset(lateOutputQuiet)
	}
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				return
			}
			if c.add(ev) {
				quiet.Reset(lateOutputQuiet)
			}
		case <-quiet.C:
			return
		case <-all.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (c *evalCollector) result(lost bool) EvalOutput {
	out := c.out
	text := c.text
	if len(text) > EvalOutputMax {
		n := EvalOutputMax
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text, out.Cut = text[:n], true
	}
	out.Text = string(text)
	out.Lost = lost
	return out
}
