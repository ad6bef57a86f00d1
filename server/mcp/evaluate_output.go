// evaluate_output.go: debug_evaluate shows what the evaluation printed
// (print(...) writes to stdout and returns None: the agent saw only
// "= None"). The session gathers the output events of the call
// (session.EvaluateOutput): a kernel's IOPub stream of dapscope's own
// request, debugpy's output while it evaluates. Bounded: its head, with
// the total size.

package mcp

import (
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// printed puts what the evaluation printed into r.
func (r *EvaluateResult) printed(o session.EvalOutput) {
	r.Output = o.Text
	if o.Cut || o.Lost {
		r.OutputBytes = o.Bytes
	}
}

// printedText is the text form's part for the output ("" without any).
func (r *EvaluateResult) printedText() string {
	if r.Output == "" {
		return ""
	}
	return "\nprinted" + r.outputSize() + ":\n" + fenced(r.Output)
}

func (r *EvaluateResult) outputSize() string {
	if r.OutputBytes > len(r.Output) {
		return fmt.Sprintf(" (the first %d of %d bytes)", len(r.Output), r.OutputBytes)
	}
	return ""
}

// fenced is text in a code fence longer than any backtick run in it.
func fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + strings.TrimSuffix(text, "\n") + "\n" + fence
}

// withPrinted adds what a failed evaluation printed to its error's
// message (an expression may print, then raise).
func withPrinted(err error, o session.EvalOutput) error {
	if o.Text == "" {
		return err
	}
	e := errcode.From(err)
	c := *e
	c.Message += "\nprinted before it failed:\n" + fenced(o.Text)
	return &c
}
