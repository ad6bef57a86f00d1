// snippet.go cuts the source shown for a result within a token budget: a
// symbol's span (long docstrings collapsed, then at most ~80 lines with head
// and tail kept), or a file's first ~100 lines / an outline of its key
// top-level definitions. Every cut is marked in place with
// "... [lines a-b omitted] ...".

package code

import (
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

const (
	symbolBudget  = 80  // lines of a symbol snippet
	symbolHead    = 55  // kept from the top when cutting
	fileBudget    = 100 // lines of a file snippet
	docKeep       = 3   // docstring lines kept when collapsing
	docCollapseAt = 8   // docstrings longer than this are collapsed
	lineMaxRunes  = 240
)

func omitted(a, b int, what string) string {
	if a == b {
		return fmt.Sprintf("... [%sline %d omitted] ...", what, a)
	}
	return fmt.Sprintf("... [%slines %d-%d omitted] ...", what, a, b)
}

// splitLines splits source into lines without trailing newline artefacts.
func splitLines(src string) []string {
	src = strings.TrimSuffix(src, "\n")
	if src == "" {
		return nil
	}
	ls := strings.Split(src, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

type outLine struct {
	n    int // source line; 0 for a marker
	text string
}

// symbolSnippet renders lines [start, end] (1-based, inclusive).
func symbolSnippet(lines []string, start, end int, docSpan [2]int) string {
	start = max(start, 1)
	end = min(end, len(lines))
	if end < start {
		return ""
	}
	var out []outLine
	for n := start; n <= end; n++ {
		if docSpan[0] > 0 && n == docSpan[0]+docKeep && docSpan[1]-docSpan[0]+1 > docCollapseAt {
			// Collapse the docstring body; keep its closing line.
			indent := leadingSpace(lines[docSpan[0]-1])
			out = append(out, outLine{0, indent + omitted(n, docSpan[1]-1, "docstring ")})
			n = docSpan[1] - 1
			continue
		}
		out = append(out, outLine{n, clip.Runes.Fit(lines[n-1], lineMaxRunes)})
	}
	if len(out) > symbolBudget {
		tail := symbolBudget - symbolHead - 1
		head := out[:symbolHead]
		rest := out[len(out)-tail:]
		from, to := 0, 0
		for _, l := range head {
			if l.n > 0 {
				from = l.n + 1
			}
		}
		for i := len(rest) - 1; i >= 0; i-- {
			if rest[i].n > 0 {
				to = rest[i].n - 1
			}
		}
		marker := outLine{0, leadingSpace(out[symbolHead].text) + omitted(from, to, "")}
		out = append(append(append([]outLine{}, head...), marker), rest...)
	}
	texts := make([]string, len(out))
	for i, l := range out {
		texts[i] = l.text
	}
	return strings.Join(texts, "\n")
}

// fileSnippet renders a whole short file, or the head of a long one plus an
// outline of its top-level definitions (their first lines), within budget.
func fileSnippet(lines []string, tops []span) (string, [2]int) {
	n := len(lines)
	if n == 0 {
		return "", [2]int{0, 0}
	}
	if n <= fileBudget+fileBudget/5 {
		out := make([]string, n)
		for i, l := range lines {
			out[i] = clip.Runes.Fit(l, lineMaxRunes)
		}
		return strings.Join(out, "\n"), [2]int{1, n}
	}
	if len(tops) == 0 {
		out := make([]string, 0, fileBudget+1)
		for _, l := range lines[:fileBudget] {
			out = append(out, clip.Runes.Fit(l, lineMaxRunes))
		}
		out = append(out, omitted(fileBudget+1, n, ""))
		return strings.Join(out, "\n"), [2]int{1, n}
	}
	// Header: up to the first definition, at most 30 lines.
	headEnd := min(tops[0].start-1, 30)
	var out []string
	for i := 0; i < headEnd; i++ {
		out = append(out, clip.Runes.Fit(lines[i], lineMaxRunes))
	}
	last := headEnd // last line shown
	for _, t := range tops {
		if len(out) >= fileBudget-2 {
			if last < n {
				out = append(out, omitted(last+1, n, ""))
			}
			return strings.Join(out, "\n"), [2]int{1, n}
		}
		if t.start > last+1 {
			out = append(out, omitted(last+1, t.start-1, ""))
		}
		// The signature: up to 3 lines, until one ends the header.
		k := t.start
		for ; k <= min(t.end, t.start+2, n); k++ {
			out = append(out, clip.Runes.Fit(lines[k-1], lineMaxRunes))
			tl := strings.TrimSpace(lines[k-1])
			if strings.HasSuffix(tl, ":") || strings.HasSuffix(tl, "{") || strings.HasSuffix(tl, "}") {
				k++
				break
			}
		}
		last = k - 1
		// The first docstring line, if any.
		if t.doc > 0 && t.doc > last && t.doc <= t.end {
			if t.doc > last+1 {
				out = append(out, omitted(last+1, t.doc-1, ""))
			}
			out = append(out, clip.Runes.Fit(lines[t.doc-1], lineMaxRunes))
			last = t.doc
		}
	}
	if last < n {
		out = append(out, omitted(last+1, n, ""))
	}
	return strings.Join(out, "\n"), [2]int{1, n}
}

type span struct{ start, end, doc int }

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
