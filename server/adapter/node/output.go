// output.go: the program's output as DAP output events. A launched node's
// stdout and stderr are the output, exactly as the program wrote them
// (console.log goes there too, formatted by Node itself; console.error and
// console.warn to stderr). An attached program's streams are not ours, so
// its console.* calls come from Runtime.consoleAPICalled instead, formatted
// from their arguments, with the caller's source location.

package node

import (
	"encoding/json"
	"strings"

	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/inspect/clip"
)

// output sends one chunk of the program's output.
func (s *Server) output(category, text string) {
	s.event("output", godap.OutputEventBody{Category: category, Output: text})
}

// consoleCategory is the DAP category of a console call.
func consoleCategory(t runtime.ConsoleAPICalledType) string {
	switch t {
	case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeWarning, runtime.ConsoleAPICalledTypeAssert, runtime.ConsoleAPICalledTypeTrace:
		return "stderr"
	}
	return "stdout"
}

// consoleOutput sends a console call of an attached program.
func (s *Server) consoleOutput(e *runtime.EventConsoleAPICalled) {
	switch e.Type {
	case runtime.ConsoleAPICalledTypeEndGroup, runtime.ConsoleAPICalledTypeClear:
		return
	}
	parts := make([]string, 0, len(e.Args))
	for _, a := range e.Args {
		if a.Type == runtime.RemoteObjectTypeString {
			var v string
			_ = json.Unmarshal(a.Value, &v)
			parts = append(parts, clip.UTF16.Head(v, maxFullStr))
			continue
		}
		parts = append(parts, valueText(a, maxValue))
	}
	body := godap.OutputEventBody{Category: consoleCategory(e.Type), Output: strings.Join(parts, " ") + "\n"}
	if st := e.StackTrace; st != nil {
		// The first frame with a file: a logpoint's own frame has none.
		for _, f := range st.CallFrames {
			if path := filePath(f.URL); path != "" {
				body.Source = &godap.Source{Path: path}
				body.Line, body.Column = int(f.LineNumber)+1, int(f.ColumnNumber)+1
				break
			}
		}
	}
	s.event("output", body)
}
