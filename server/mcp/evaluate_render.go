// evaluate_render.go: debug_evaluate's results made readable. An adapter
// elides nested parts of a value's text (debugpy: {'count': {(...): 28}},
// V8: {a: {…}}): the value's children are read through its
// variables_reference, level by level, and the text is rebuilt with every
// nested key the budget allows. A multi-line string comes back as its
// text, with its length and line count, instead of one escaped line.

package mcp

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dapscope/dapscope/server/session"
)

// Bounds of a rebuilt value.
const (
	expandBytes = 8 << 10 // the text of a rebuilt value
	expandDepth = 3       // levels read below the value
	expandItems = 50      // items per level
)

// containerPrefix is what may stand before a container's bracket: nothing
// (Python's dict, list, tuple) or a class name and a space (V8's "Point {…}").
var containerPrefix = regexp.MustCompile(`^([A-Za-z_$][\w$]* |\(\d+\) )?$`)

// jsArrayPrefix is the length V8 writes before an array's items.
var jsArrayPrefix = regexp.MustCompile(`^\(\d+\) `)

// elisionMarkers are how adapters write a nested part they left out.
var elisionMarkers = []string{"(...)", "[...]", "{...}", "{…}", "[…]", "(…)", "Array("}

func elided(v string) bool {
	for _, m := range elisionMarkers {
		if strings.Contains(v, m) {
			return true
		}
	}
	return false
}

// expandValue rebuilds value (of a variables reference) with its elided
// parts read from the adapter; ok is false when it could not.
func expandValue(ctx context.Context, sess *session.Session, value string, ref int) (string, bool) {
	if ref <= 0 || !elided(value) {
		return value, false
	}
	budget := expandBytes
	return expandLevel(ctx, sess, value, ref, 0, &budget)
}

func expandLevel(ctx context.Context, sess *session.Session, value string, ref, depth int, budget *int) (string, bool) {
	i := strings.IndexAny(value, "{[(")
	if m := jsArrayPrefix.FindString(value); m != "" {
		i = len(m) // V8's "(3) [1, Array(2), …]"
	}
	if i < 0 || !containerPrefix.MatchString(value[:i]) {
		return value, false // not a container's text ("<Order object at …>", "defaultdict(…)")
	}
	prefix, open := value[:i], value[i]
	vars, err := sess.Variables(ctx, ref)
	if err != nil {
		return value, false
	}
	keyed := open == '{'
	var items []string
	more := 0
	for _, v := range vars {
		if isGroup(v.Name) || v.Name == "len()" || strings.HasPrefix(v.Name, "[[") {
			continue // debugpy's groups and len(), V8's internal slots
		}
		_, err := strconv.Atoi(v.Name)
		if err != nil && open == '[' {
			continue // an array's own properties (V8's length)
		}
		child := v.Value
		if depth+1 < expandDepth && v.VariablesReference > 0 && elided(child) && *budget > 256 {
			if c, ok := expandLevel(ctx, sess, child, v.VariablesReference, depth+1, budget); ok {
				child = c
			}
		}
		item := child
		if keyed {
			item = v.Name + ": " + child
		}
		if len(items) == expandItems || len(item)+2 > *budget {
			more++
			continue
		}
		*budget -= len(item) + 2
		items = append(items, item)
	}
	if len(items) == 0 && more == 0 {
		return value, false
	}
	if more > 0 {
		items = append(items, "…("+strconv.Itoa(more)+" more)")
	}
	closing := map[byte]string{'{': "}", '[': "]", '(': ")"}[open]
	return prefix + string(open) + strings.Join(items, ", ") + closing, true
}

// stringText reads a string literal as an adapter writes a string value
// ('…' or "…" with backslash escapes): its text, and whether the adapter
// cut it (a trailing "..." inside the quotes).
func stringText(lit string) (text string, cut, ok bool) {
	if len(lit) < 2 {
		return "", false, false
	}
	q := lit[0]
	if (q != '\'' && q != '"') || lit[len(lit)-1] != q {
		return "", false, false
	}
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n < len(body) {
				if r, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	text = b.String()
	if !utf8.ValidString(text) {
		return "", false, false
	}
	// debugpy cuts a string past 2^16 characters in its middle ("...").
	cut = len(body) >= 1<<16 && strings.Contains(body, "...")
	return text, cut, true
}

// readable fills r's text fields from the adapter's answer: nested keys
// read to the depth the budget allows, a multi-line string as text.
func (r *EvaluateResult) readable(ctx context.Context, sess *session.Session) {
	if v, ok := expandValue(ctx, sess, r.Result, r.VariablesReference); ok {
		r.Result, r.Expanded = v, true
		return
	}
	text, cut, ok := stringText(r.Result)
	if !ok || cut || !strings.Contains(text, "\n") || len(text) > maxTextBytes {
		return // one line, or too long to show twice: the adapter's text
	}
	r.Text, r.Length, r.Lines = text, utf8.RuneCountInString(text), strings.Count(strings.TrimSuffix(text, "\n"), "\n")+1
}
