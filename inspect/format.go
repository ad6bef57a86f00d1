// This file holds the entry points of rendering: Format renders a Result,
// FormatError an inspection error, as json (the model), tui (an ASCII box
// with Type/Shape/Memory, a COLUMNS table and a PREVIEW table, width-aware:
// format_tui.go) or markdown (short, for hovers: format_markdown.go). The
// tables both layouts share are built in format_table.go.

package inspect

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/errcode"
)

// Format renders r; width applies to tui (default 100, minimum 40).
func Format(r *Result, format string, width int) (string, error) {
	switch format {
	case "", "json":
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return "", err
		}
		return string(b), nil
	case "tui":
		return formatTUI(r, width), nil
	case "markdown", "md":
		return formatMarkdown(r), nil
	}
	return "", &errcode.Error{Code: errcode.InvalidArgument, Message: fmt.Sprintf("unknown format %q (json, tui, markdown)", format)}
}

// HeadLines is how many lines of Format's text are its head: the summary
// and every problem the inspector found, which a caller cutting the text
// to a budget keeps (0 for json).
func HeadLines(r *Result, format string, width int) int {
	switch format {
	case "tui":
		return 1 + len(tuiHead(r, boxInner(width))) // the top border, then the head
	case "markdown", "md":
		return strings.Count(markdownHead(r), "\n") + 1
	}
	return 0
}

// FormatError renders an inspection error in the same formats.
func FormatError(name string, e *errcode.Error, format string, width int) string {
	switch format {
	case "tui":
		lines := []string{string(e.Code) + ": " + e.Message}
		if e.Hint != "" {
			lines = append(lines, "hint: "+e.Hint)
		}
		if len(e.AvailableVariables) > 0 {
			lines = append(lines, "available: "+strings.Join(e.AvailableVariables, ", "))
		}
		return box(name, wrapAll(lines, boxInner(width)), width)
	case "markdown", "md":
		s := fmt.Sprintf("**%s** — `%s`: %s", mdEscape(name), e.Code, mdEscape(e.Message))
		if e.Hint != "" {
			s += "\n\n_" + mdEscape(e.Hint) + "_"
		}
		if len(e.AvailableVariables) > 0 {
			s += "\n\nAvailable: " + mdEscape(strings.Join(e.AvailableVariables, ", "))
		}
		return s
	}
	b, _ := json.MarshalIndent(struct {
		Name  string         `json:"name"`
		Error *errcode.Error `json:"error"`
	}{name, e}, "", "  ")
	return string(b)
}
