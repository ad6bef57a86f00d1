// cdptext.go: reading the inspector's text leniently. V8 writes a string
// that holds half of a UTF-16 surrogate pair ('😀'.slice(0, 1)) as a lone
// escape ("\ud83d"), which a strict JSON decoder rejects: such escapes are
// replaced by U+FFFD before decoding (fixSurrogates), invalid UTF-8 is
// replaced too (lenient), and a message that still cannot be decoded, or
// is too large to read, is matched to its call by the id at its head
// (headID) so that the call fails instead of waiting forever.

package node

import (
	"bytes"
	"regexp"
	"strconv"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// lenient are the decoding options of everything the inspector sends.
var lenient = jsonv2.AllowInvalidUTF8(true)

// replacement is the escape of U+FFFD, as long as any \uXXXX escape.
var replacement = []byte(`\ufffd`)

// fixSurrogates returns b with every escaped UTF-16 surrogate that is not
// half of a pair replaced by \ufffd (same length); b itself, not copied,
// when it has none.
func fixSurrogates(b []byte) []byte {
	out := b
	copied := false
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			return out
		}
		i += j
		if i+1 >= len(b) {
			return out
		}
		if b[i+1] != 'u' {
			i += 2 // any other escape, \\ included
			continue
		}
		r, ok := hex4(b, i+2)
		switch {
		case !ok:
			i += 2
			continue
		case r < 0xd800 || r > 0xdfff:
			i += 6
			continue
		case r <= 0xdbff: // high: a pair when a low one follows
			if i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if lo, ok := hex4(b, i+8); ok && lo >= 0xdc00 && lo <= 0xdfff {
					i += 12
					continue
				}
			}
		}
		if !copied {
			out = bytes.Clone(b)
			copied = true
		}
		copy(out[i:], replacement)
		i += 6
	}
}

// hex4 reads the 4 hex digits of an escape at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 16)
	return rune(n), err == nil
}

var (
	// headIDRE is the id V8 writes first in every answer.
	headIDRE = regexp.MustCompile(`^\s*\{\s*"id"\s*:\s*(\d+)`)
	// headMethodRE is the method V8 writes first in every event.
	headMethodRE = regexp.MustCompile(`^\s*\{\s*"method"\s*:\s*"([A-Za-z.]+)"`)
	// workerHeadRE reads a worker's message wrapped in
	// NodeWorker.receivedMessageFromWorker: its session and inner id.
	workerHeadRE = regexp.MustCompile(`"sessionId"\s*:\s*"([^"\\]+)"\s*,\s*"message"\s*:\s*"\{\\"id\\"\s*:\s*(\d+)`)
)

// headID is the id at the head of a message (an answer), if any.
func headID(b []byte) (int64, bool) {
	m := headIDRE.FindSubmatch(b[:min(len(b), 64)])
	if m == nil {
		return 0, false
	}
	id, err := strconv.ParseInt(string(m[1]), 10, 64)
	return id, err == nil && id > 0
}

// headMethod is the method at the head of a message (an event), if any.
func headMethod(b []byte) string {
	m := headMethodRE.FindSubmatch(b[:min(len(b), 128)])
	if m == nil {
		return ""
	}
	return string(m[1])
}

// workerHead is the worker session and the id of the answer wrapped in a
// NodeWorker.receivedMessageFromWorker event, if it is one.
func workerHead(b []byte) (string, int64, bool) {
	m := workerHeadRE.FindSubmatch(b[:min(len(b), 512)])
	if m == nil {
		return "", 0, false
	}
	id, err := strconv.ParseInt(string(m[2]), 10, 64)
	return string(m[1]), id, err == nil && id > 0
}
