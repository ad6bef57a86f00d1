// Table-driven tests of the JavaScript path grammar (ParsePathFor "node"):
// JavaScript names ($, unicode letters and marks), reserved words as
// property names but not as variables, the same subscripts as Python, no
// calls; and Python's grammar unchanged for other adapters.

package inspect

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestParsePathJS(t *testing.T) {
	ok := []struct{ in, js, steps string }{
		{"records[0].city", `records[0].city`, `[["name","records"],["item",0],["attr","city"]]`},
		{"$", `$`, `[["name","$"]]`},
		{"$el.$refs._x$1", `$el.$refs._x$1`, `[["name","$el"],["attr","$refs"],["attr","_x$1"]]`},
		{"jQuery$", `jQuery$`, `[["name","jQuery$"]]`},
		{"opts.class", `opts.class`, `[["name","opts"],["attr","class"]]`},
		{"imp.from.default.new", `imp.from.default.new`, `[["name","imp"],["attr","from"],["attr","default"],["attr","new"]]`},
		{"None", `None`, `[["name","None"]]`},                        // a name in JavaScript
		{"from", `from`, `[["name","from"]]`},                        // a contextual keyword, not reserved
		{"lambda.x", `lambda.x`, `[["name","lambda"],["attr","x"]]`}, // Python's keyword, JavaScript's name
		{"this.rows[-1]", `this.rows[-1]`, `[["name","this"],["attr","rows"],["item",-1]]`},
		{"café.naïve", `café.naïve`, `[["name","café"],["attr","naïve"]]`},
		{"名前['キー']", `名前["キー"]`, `[["name","名前"],["item","キー"]]`},
		{"e\u0301t\u00e9", "e\u0301t\u00e9", `[["name","e` + "\u0301" + `t` + "\u00e9" + `"]]`}, // a combining mark continues a name
		{`byName["two"]`, `byName["two"]`, `[["name","byName"],["item","two"]]`},
	}
	for _, c := range ok {
		if c.js == "" {
			continue
		}
		p, err := ParsePathFor(JavaScript, c.in)
		if err != nil {
			t.Errorf("ParsePathFor(node, %q): %v", c.in, err)
			continue
		}
		if got := p.JSExpr(); got != c.js {
			t.Errorf("ParsePathFor(node, %q).JSExpr() = %q, want %q", c.in, got, c.js)
		}
		if b, _ := json.Marshal(p); string(b) != c.steps {
			t.Errorf("ParsePathFor(node, %q) = %s, want %s", c.in, b, c.steps)
		}
	}
	bad := []string{
		"new", "class", "this.x.", "null", "true", "typeof", "let", "await", "yield", // reserved words as variables
		"map.get('k')", "rows.slice(1)", "a + b", "a?.b", "a[b]", "x[1:2]", "1abc", "prix_€", "a.", "#priv", "a.#priv",
		"\u0301x", // a mark cannot start a name
	}
	for _, in := range bad {
		_, err := ParsePathFor(JavaScript, in)
		var ie *errcode.Error
		if !errors.As(err, &ie) || ie.Code != errcode.InvalidExpression || ie.Hint == "" {
			t.Errorf("ParsePathFor(node, %q): want INVALID_EXPRESSION with a hint, got %v", in, err)
		}
	}
	// Other adapters keep Python's grammar: $ and its keywords are refused.
	for _, adapter := range []Language{Python, Go, ""} {
		for _, in := range []string{"$el", "opts.class", "None", "x.from"} {
			if _, err := ParsePathFor(adapter, in); err == nil {
				t.Errorf("ParsePathFor(%q, %q): want an error in Python's grammar", adapter, in)
			}
		}
		if _, err := ParsePathFor(adapter, "self.new"); err != nil {
			t.Errorf("ParsePathFor(%q, self.new): %v", adapter, err)
		}
	}
}
