// echo.go: errors never echo unbounded input. An agent's oversized
// argument (a 10 MB program path, a 5 MB unknown field name) may end up
// quoted in an error message; every run of text longer than maxEcho is cut
// to maxEcho characters plus its size, and a message as a whole stays
// under maxErrorMessage, so no error response approaches the 100 KB cap.

package mcp

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

const (
	maxEcho         = 200     // characters kept of one echoed word
	maxErrorMessage = 4 << 10 // bytes of a whole message
	maxErrorList    = 50      // available variables listed
)

// boundError bounds every string of a tool error.
func boundError(te errcode.Error) errcode.Error {
	te.Message = boundText(te.Message, maxErrorMessage)
	te.Field = boundText(te.Field, maxEcho+32)
	te.Hint = boundText(te.Hint, maxErrorMessage)
	te.State = boundText(te.State, maxEcho)
	if len(te.AvailableVariables) > maxErrorList {
		te.AvailableVariables = append(te.AvailableVariables[:maxErrorList:maxErrorList], fmt.Sprintf("…(%d more)", len(te.AvailableVariables)-maxErrorList))
	}
	for i, v := range te.AvailableVariables {
		te.AvailableVariables[i] = boundText(v, maxEcho)
	}
	return te
}

// boundText cuts each run of non-space characters longer than maxEcho
// characters, then the whole text to limit bytes, on rune boundaries.
func boundText(s string, limit int) string {
	if len(s) <= maxEcho {
		return s
	}
	var b strings.Builder
	run := 0 // runes in the current non-space run
	start := 0
	for i, r := range s {
		if unicode.IsSpace(r) {
			run = 0
			continue
		}
		run++
		if run == maxEcho+1 {
			// Cut this run: skip to its end and note its size.
			end := i
			for end < len(s) {
				r2, n := utf8.DecodeRuneInString(s[end:])
				if unicode.IsSpace(r2) {
					break
				}
				end += n
			}
			b.WriteString(s[start:i])
			fmt.Fprintf(&b, "…(%s bytes)", commaInt(end-runStart(s, i, maxEcho)))
			start = end
		}
		if b.Len() > limit {
			break
		}
	}
	if start < len(s) {
		b.WriteString(s[start:])
	}
	out := b.String()
	if len(out) > limit {
		cut, _ := clip.Bytes.Prefix(out, limit)
		out = cut + fmt.Sprintf("…(%s bytes in all)", commaInt(len(s)))
	}
	return out
}

// runStart is the byte offset where the run ending before byte i began,
// given that it has n runes before i.
func runStart(s string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return i
}

func commaInt(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
