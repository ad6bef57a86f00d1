// evalshown.go: what an evaluation on a kernel session shows: the value's
// text/plain representation (IPython's, as the notebook shows it) cut IN
// THE KERNEL at ShownMax characters with a note of its full length, so a
// 20 MB string never crosses the wire; and what the evaluation printed
// (the IOPub stream messages whose parent is dapscope's own request),
// bounded. It stays silent and traceless, as EvaluateRepr.

package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	godap "github.com/google/go-dap"
)

// ShownMax is how many characters of a value's representation an
// evaluation brings back (debugpy cuts a string at 2^16 characters too).
const ShownMax = 1 << 16

// ShownOutputMax bounds each stream (stdout, stderr) an evaluation's
// printing brings back (both fit session.EvalOutputMax).
const ShownOutputMax = 8 << 10

// Shown is an evaluated value as shown, with what its evaluation printed.
type Shown struct {
	// Text is the value's text/plain representation, cut at ShownMax
	// characters (then ending in a note that gives Length).
	Text string
	// Length is the full representation's length in characters when it
	// was cut, else 0.
	Length int
	// Stdout and Stderr are what the evaluation printed, each at most
	// ShownOutputMax bytes (its head); OutputBytes counts all of it.
	Stdout, Stderr string
	OutputBytes    int
}

// shownNote ends a cut representation; %d is the full length.
const shownNote = "… [dapscope cut this representation: %d characters in all]"

// shownExpr wraps expr so the kernel formats its value as IPython's
// text/plain (repr when that fails) and cuts it at max characters; the
// wrapper's own value is a str. expr stands alone between newlines, so a
// trailing comment in it cannot swallow the wrapper.
func shownExpr(expr string, max int) string {
	return "(lambda n, v: (lambda t: t if len(t) <= n else t[:n] + " + strconv.Quote(shownNote) + " % len(t))(" +
		"(lambda s: (lambda t: t if isinstance(t, str) else repr(v))(" +
		"s.display_formatter.formatters['text/plain'](v) if s is not None else None))(" +
		"__import__('IPython').get_ipython())))(" + strconv.Itoa(max) + ", (\n" + expr + "\n))"
}

// EvaluateShown evaluates expr silently and without a trace, as
// EvaluateRepr, and returns its representation cut in the kernel and
// what it printed. An exception is an *EvalError.
func (c *Client) EvaluateShown(ctx context.Context, expr string, o CallOptions) (*Shown, error) {
	content := executeRequest{Silent: true, UserExpressions: map[string]string{"v": shownExpr(expr, ShownMax)}}
	r, outputs, err := c.execute(ctx, call{channel: ChannelShell, msgType: "execute_request", content: content,
		collect: true, busyCheck: true, wait: o.Wait}, true)
	if err != nil {
		return nil, err
	}
	sh := &Shown{}
	sh.streams(outputs)
	lit, err := c.userExpression(r)
	if err != nil {
		if ee, ok := err.(*EvalError); ok && ee.Name == "SyntaxError" {
			// The wrapper's line numbers are not the user's: say it
			// of the expression alone.
			ee.Traceback = nil
		}
		return sh, err
	}
	text, err := decodePyStr(lit)
	if err != nil {
		return sh, fmt.Errorf("%s: the shown value is not a str (%s): %w", c.name, clipText(lit, 80), err)
	}
	sh.Text = text
	if strings.HasSuffix(text, " characters in all]") {
		if i := strings.LastIndex(text, "… [dapscope cut this representation: "); i >= 0 {
			n, _ := strconv.Atoi(strings.TrimSuffix(text[i+len("… [dapscope cut this representation: "):], " characters in all]"))
			sh.Length = n
		}
	}
	return sh, nil
}

// userExpression is the text/plain of the user expression "v" of r.
func (c *Client) userExpression(r *executeReply) (string, error) {
	switch r.Status {
	case "ok":
	case "error":
		return "", &EvalError{Name: r.EName, Value: r.EValue, Traceback: r.Traceback}
	default:
		return "", statusError(c.name, "evaluation", r.Status)
	}
	raw, ok := r.UserExpressions["v"]
	if !ok {
		return "", fmt.Errorf("%s: the %s kernel returned no user_expressions: it cannot evaluate silently (Python kernels, ipykernel, can): %w",
			c.name, c.languageName(), ErrUnsupported)
	}
	var ue userExpression
	if err := json.Unmarshal(raw, &ue); err != nil {
		return "", fmt.Errorf("%s: user_expressions result: %w", c.name, err)
	}
	if ue.Status != "ok" {
		return "", &EvalError{Name: ue.EName, Value: ue.EValue, Traceback: ue.Traceback}
	}
	text, ok := ue.Data["text/plain"].(string)
	if !ok {
		return "", fmt.Errorf("%s: the evaluation has no text/plain representation", c.name)
	}
	return text, nil
}

// streams keeps the head of what the request's stream messages carried.
func (sh *Shown) streams(outputs []*Message) {
	var out, errOut strings.Builder
	for _, m := range outputs {
		if m.Header.MsgType != "stream" {
			continue
		}
		var body struct {
			Name string `json:"name"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &body)
		sh.OutputBytes += len(body.Text)
		b := &out
		if body.Name == "stderr" {
			b = &errOut
		}
		if left := ShownOutputMax - b.Len(); left > 0 {
			b.WriteString(headBytes(body.Text, left))
		}
	}
	sh.Stdout, sh.Stderr = out.String(), errOut.String()
}

// headBytes is s's first n bytes at most, cut on a rune boundary.
func headBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// evaluateShown answers a namespace evaluate: the value as shown (cut in
// the kernel), what the evaluation printed as the session's output events
// (stdout, stderr) queued just before the response, so the session reads
// them as this request's (session.EvaluateOutput).
func (n *namespace) evaluateShown(ctx context.Context, expr string) (any, error) {
	sh, err := n.a.c.EvaluateShown(ctx, expr, CallOptions{})
	if sh != nil {
		n.a.mu.Lock()
		for _, o := range []struct{ cat, text string }{{"stdout", sh.Stdout}, {"stderr", sh.Stderr}} {
			if o.text != "" {
				n.a.eventLocked("output", map[string]any{"category": o.cat, "output": o.text})
			}
		}
		if cut := sh.OutputBytes - len(sh.Stdout) - len(sh.Stderr); cut > 0 {
			n.a.eventLocked("output", map[string]any{"category": "stderr", "dapscopeDropped": cut,
				"output": fmt.Sprintf("[dapscope: %d more bytes of this evaluation's output were dropped]\n", cut)})
		}
		n.a.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	return godap.EvaluateResponseBody{Result: sh.Text}, nil
}
