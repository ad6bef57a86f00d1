// debugpy_traceback.go: debugpy's exceptionInfo lists the frames innermost
// first, then the exception line; Python prints "Traceback (most recent
// call last):", the frames outermost first, and the exception line last.

package adapter

import "strings"

// Traceback puts debugpy's stack trace in Python's order.
func (debugpyDriver) Traceback(raw string) string {
	lines := strings.Split(strings.TrimRight(raw, "\n"), "\n")
	var frames [][]string // each: `  File "…", line N, in f` and its indented lines
	var tail []string     // the exception line(s) after the frames
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, `  File "`):
			frames = append(frames, []string{l})
		case len(frames) > 0 && len(tail) == 0 && strings.HasPrefix(l, "    "):
			frames[len(frames)-1] = append(frames[len(frames)-1], l)
		case len(frames) == 0 && strings.HasPrefix(l, "Traceback (most recent call last)"):
			return raw // already Python's order
		default:
			if len(frames) == 0 {
				return raw // not a traceback we know
			}
			tail = append(tail, l)
		}
	}
	if len(frames) == 0 {
		return raw
	}
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	for i := len(frames) - 1; i >= 0; i-- {
		for _, l := range frames[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	for _, l := range tail {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
