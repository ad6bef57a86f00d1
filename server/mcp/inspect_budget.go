// inspect_budget.go: debug_inspect_variable's answer within max_bytes,
// measured as it is sent (the whole tool result: text and structured
// content). The structured facts go first in inspect.Fit's order, then a
// page's last rows, then the text's tail; what the inspector found wrong
// (inspect.Problems) stays named in the text, right after the summary,
// and budget.dropped says what went and which argument brings it back.

package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/inspect"
)

// minTextBytes is the text a budget never cuts below (the summary and the
// problem lines come first in it).
const minTextBytes = 512

// answerBytes is the size of a tool result as sent.
func answerBytes(structured any, text string) int {
	b, err := json.Marshal(mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent(text)}, StructuredContent: structured})
	if err != nil {
		return 1 << 30
	}
	return len(b)
}

// headBytes is the length of the first n lines of text.
func headBytes(text string, n int) int {
	off := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

// fitText cuts full to the longest text (at most limit bytes, never below
// its first keep bytes nor minTextBytes) for which fits holds, at line
// boundaries.
func fitText(full string, limit, keep int, fits func(string) bool) string {
	floor := max(minTextBytes, keep+96) // capText keeps room for its marker
	limit = max(limit, floor)
	text := capText(full, limit)
	if fits(text) || limit <= floor {
		return text
	}
	lo, hi := floor, limit
	for hi-lo > 32 {
		mid := (lo + hi) / 2
		if fits(capText(full, mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return capText(full, lo)
}

// fitInspect fits an inspection (no page) into budget bytes; headLines
// of the text (the summary and the problems) are never cut.
func fitInspect(res *inspect.Result, budget int, render func() string, headLines int) *InspectResult {
	out := &InspectResult{Result: res}
	textBudget := min(maxTextBytes, budget/2)
	out.text_ = capText(render(), textBudget)
	if answerBytes(out, out.text_) <= budget {
		return out
	}
	inspect.KeepProblems(res)
	textJSON, _ := json.Marshal(out.text_)
	note := inspect.Fit(res, budget-len(textJSON)-64)
	if note == nil {
		note = &inspect.BudgetNote{}
		res.Budget = note
	}
	note.MaxBytes = budget // what the agent asked for (Fit had what was left after the text)
	fits := func(t string) bool { return answerBytes(out, t) <= budget }
	full := render()
	full += budgetLine(full, note)
	out.text_ = fitText(full, textBudget, headBytes(full, headLines), fits)
	if !fits(out.text_) { // the last resort: the inspector's hard shrinking
		inspect.Cap(res, budget-(answerBytes(out, out.text_)-inspect.Size(res)))
	}
	return out
}

// fitPage fits a page answer into budget bytes: the summary's facts go
// first, then the page's last rows (the page is what was asked for), then
// the text's tail.
func fitPage(res *inspect.Result, page *inspect.Page, budget int) *InspectResult {
	out := &InspectResult{Result: res, Page: page}
	textBudget := min(maxTextBytes, budget/2)
	out.text_ = capText(pageText(res, page), textBudget)
	if answerBytes(out, out.text_) <= budget {
		return out
	}
	inspect.KeepProblems(res)
	pageJSON, _ := json.Marshal(page)
	textJSON, _ := json.Marshal(out.text_)
	note := inspect.Fit(res, budget-len(pageJSON)-len(textJSON)-64)
	if note == nil {
		note = &inspect.BudgetNote{}
		res.Budget = note
	}
	note.MaxBytes = budget
	full := func() string { t := strings.TrimRight(pageText(res, page), "\n"); return t + budgetLine(t, note) }
	fits := func(t string) bool { return answerBytes(out, t) <= budget }
	out.text_ = capText(full(), textBudget)
	if !fits(out.text_) && len(page.Rows) > 1 {
		all := len(page.Rows)
		note.Dropped = append(note.Dropped, inspect.Dropped{What: fmt.Sprintf("%d page rows", all), How: "rows {offset, limit} pages on"})
		last := &note.Dropped[len(note.Dropped)-1]
		kept := inspect.FitPage(page, func() bool {
			out.text_ = capText(full(), textBudget)
			return fits(out.text_)
		})
		last.What = fmt.Sprintf("%d of %d page rows", all-kept, all)
		last.How = fmt.Sprintf("rows {offset: %d, limit: %d}", page.Offset+int64(kept), all-kept)
	}
	t := full()
	out.text_ = fitText(t, textBudget, headBytes(t, 1+len(inspect.Problems(res))), fits)
	if !fits(out.text_) { // the last resort: the inspector's hard shrinking
		inspect.Cap(res, budget-(answerBytes(out, out.text_)-inspect.Size(res)))
	}
	return out
}
