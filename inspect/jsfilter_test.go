// jsfilter_test.go: the JavaScript filter grammar (jsfilter.go): every
// filter the tests and docs use is accepted, each hostile one is refused
// with its reason before anything reaches the debuggee, and the validator
// is fuzzed.

package inspect

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

// jsFiltersInUse are the filters of the tests, the docs and the README.
var jsFiltersInUse = []string{
	`qty > 5 && city === "Nice"`, `qty >= minQty`, `str?.startsWith("Ni")`, `$row["unit price"] > 3`,
	`qty > 1000`, `qty > 3 && city === "Nice"`, `qty >= 3 && city !== 'Lyon'`, `qty > 1 && price > 10`,
	`a > 9`, `value > 1 && key !== ""`, `qty >= minQty && flag`, `paid && price > 12`, `paid || qty === null`,
	`$row.qty > 5`, `$row.note !== undefined && $i % 2 === 0 && str?.startsWith("Ni")`,
	`mixed instanceof Date && when !== null && when.getTime() > mixed.getTime()`,
	`qty > limit && house === 'Stark'`, `qty >= minQty && city !== 'Brest'`, `$row.note.length > 2`, `qtyy > 1`,
	`id > 2`, `$row.id > 2 && $row.qty !== 999`, `qty > 2`, `price > 1`,
	// the grammar's reach
	`Math.abs(x - 3) < 1e-3 || isNaN(y)`, `name.toLowerCase().includes("é")`, `s.trim().length > 0 ? a : b`,
	`typeof v === "number" && Number.isFinite(v)`, `/^ab+c$/i.test(code)`, "`plain` === s", `(a ?? 0) + -b * 2 ** 3 >= 0`,
	`"k" in $row`, `$row[$i % 2]`, `d?.getFullYear() === 2024`, `0x1f & flags`, `1_000n < big`, `!(a || b)`,
}

func TestJSFilterGrammarCoversFiltersInUse(t *testing.T) {
	for _, f := range jsFiltersInUse {
		if err := ValidateJSFilter(f); err != nil {
			t.Errorf("filter %q: %v", f, err)
		}
	}
}

// jsHostileFilters: each refused, its reason in the message.
var jsHostileFilters = []struct{ filter, why string }{
	{`new Array(2**30).fill(0).length > 0`, "`new` is not allowed"},
	{`Array(2**30).fill(0).length > 0`, "a call of Array"},
	{`Array.from({length: 2**30}).length`, "a call of Array.from"},
	{`'x'.repeat(2**30).length > 0`, "a call of repeat"},
	{`s.padStart(1e9).length > 0`, "a call of padStart"},
	{`[...Array(1e9).keys()].length`, "an array literal"},
	{`[1, 2, 3].includes(qty)`, "an array literal"},
	{`({a: 1}).a === qty`, "an object literal"},
	{"`${'x'.repeat(1e9)}` !== ''", "a template literal with ${"},
	{"String.raw`x` === s", "a tagged template"},
	{`/(a+)+$/.test(s)`, "nested quantifiers"},
	{`/(a|aa)*b/.test(s)`, "nested quantifiers"},
	{`/(\w)\1/.test(s)`, "back-reference"},
	{`pure(qty) > 80`, "a call of pure"},
	{`bump() > 0`, "a call of bump"},
	{`seen.set('x', 1) && true`, "a call of set"},
	{`(items.length = 0) === 0`, "an assignment (=)"},
	{`qty += 1`, "an assignment (+=)"},
	{`(state.calls++, true)`, "++ is not allowed"},
	{`--qty`, "-- is not allowed"},
	{`delete $row.qty`, "`delete` is not allowed"},
	{`(() => 1)() === 1`, "SyntaxError"},
	{`(x) => x`, "an arrow function"},
	{`a => a`, "an arrow function"},
	{`function f() {}`, "a function is not allowed"},
	{`Math.max(...xs) > 1`, "spread (...)"},
	{`qty > 1, true`, "the comma operator"},
	{`$row.constructor.constructor("return 1")()`, "the property constructor"},
	{`$row.__proto__ === null`, "the property __proto__"},
	{`$$p.n > 0`, "names starting with $$"},
	{`$row.$$a > 0`, "names starting with $$"},
	{`import("fs")`, "`import` is not allowed"},
	{`this.x > 1`, "`this` is not allowed"},
	{`eval("1") === 1`, "`eval` is not allowed"},
	{`2n ** 100000000n > 0n`, "a bigint exponent"},
	{`x instanceof Foo`, "instanceof takes a built-in class"},
	{`qty > /* hi */ 1`, "comments are not allowed"},
	{`qty >`, "SyntaxError"},
	{`qty > 1;`, "SyntaxError: unexpected ;"},
	{``, "SyntaxError: an empty filter"},
	{`"abc`, "not closed"},
	{`a ? b`, "SyntaxError"},
	{`Math.random() > 0.5`, "a call of Math.random"},
	{`JSON.stringify($row).length`, "a call of JSON.stringify"},
	{`Object.keys($row).length > 2`, "a call of Object.keys"},
	{`structuredClone($row)`, "a call of structuredClone"},
	{`globalThis.process.exit()`, "a call of exit"},
	{`x?.()`, "a call of x"},
	{"(" + strings.Repeat("a+", 300) + "a) > 0", "syntax nodes"},
}

func TestJSFilterRefusesHostileFilters(t *testing.T) {
	for _, c := range jsHostileFilters {
		err := ValidateJSFilter(c.filter)
		e := errcode.As(err)
		if e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, c.why) || !strings.Contains(e.Message, "was refused") || e.Hint == "" {
			t.Errorf("filter %q: %v, want INVALID_EXPRESSION with %q", c.filter, err, c.why)
		}
	}
}

// countingTransport counts the filter evaluates (side-effect checked) that
// would reach the debuggee, and never sends them (a hostile one that got
// through would abort node, and load the machine running the tests).
type countingTransport struct {
	*jsHarness
	n *atomic.Int32
}

func (c countingTransport) EvaluateProbe(ctx context.Context, req EvalRequest) (string, error) {
	if req.SideEffectFree {
		c.n.Add(1)
		return "", errors.New("EvalError: Possible side-effect in debug-evaluate (the test's transport sends no filter)")
	}
	return c.jsHarness.EvaluateProbe(ctx, req)
}

// TestJSFilterRefusedBeforeSending: a hostile filter never reaches node
// (it used to pass V8's side-effect check, run 10 s and abort node with a
// heap OOM); the program is alive and unchanged.
func TestJSFilterRefusedBeforeSending(t *testing.T) {
	js := startJSHarness(t, "../testdata/parity/parity.js")
	ctx := context.Background()
	var n atomic.Int32
	tr := countingTransport{js, &n}
	for _, f := range []string{`new Array(2**30).fill(0).length > 0`, `"x".repeat(2**29).length > 0`, `/(a+)+$/.test(city + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")`} {
		_, err := Browse(ctx, tr, 0, "record_list", Selection{Filter: f}, Options{Timeout: 10})
		if e := errcode.As(err); e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "was refused") {
			t.Fatalf("filter %q: %v, want INVALID_EXPRESSION", f, err)
		}
	}
	if n.Load() != 0 {
		t.Fatalf("%d evaluates reached node for refused filters", n.Load())
	}
	if got, err := js.EvaluateProbe(ctx, EvalRequest{Expression: "String(record_list.length)"}); err != nil || got != "40" {
		t.Fatalf("the program after the refused filters: %q %v", got, err)
	}
	// an allowed one still runs
	p, err := Browse(ctx, js, 0, "record_list", Selection{Filter: `qty > 3 && city?.toLowerCase().startsWith("n")`}, Options{Timeout: 10})
	if err != nil || p.Page == nil || p.Page.Total() == 0 {
		t.Fatalf("an allowed filter: %v %+v", err, p)
	}
}

// FuzzJSFilter: the validator never panics, answers the same twice, and
// what it accepts holds none of the refused constructs.
func FuzzJSFilter(f *testing.F) {
	for _, s := range jsFiltersInUse {
		f.Add(s)
	}
	for _, c := range jsHostileFilters {
		f.Add(c.filter)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > ProbeLimits.FilterChars {
			return
		}
		err := checkJSFilter(s)
		if again := checkJSFilter(s); (err == nil) != (again == nil) {
			t.Fatalf("%q: %v then %v", s, err, again)
		}
		if err != nil {
			if err.at < 0 || err.at > len(s) || err.what == "" {
				t.Fatalf("%q: a refusal without a place or a reason: %+v", s, err)
			}
			return
		}
		toks, terr := jsTokens(s)
		if terr != nil {
			t.Fatalf("%q accepted but not tokenized: %v", s, terr)
		}
		for i, tk := range toks {
			bad := false
			switch tk.kind {
			case "name":
				bad = tk.text == "new" || tk.text == "function" || tk.text == "class" || tk.text == "delete" || tk.text == "this" ||
					tk.text == "import" || tk.text == "eval" || strings.HasPrefix(tk.text, "$$") ||
					(tk.text == "constructor" || tk.text == "__proto__") && i > 0 && (toks[i-1].text == "." || toks[i-1].text == "?.")
			case "punct":
				switch tk.text {
				case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=",
					"++", "--", "=>", "...", "{", "}", ",", ";":
					bad = !(tk.text == "," && inArgs(toks, i))
				case "[":
					bad = i == 0 || !(toks[i-1].kind == "name" || toks[i-1].kind == "num" || toks[i-1].kind == "regex" || toks[i-1].kind == "str" || toks[i-1].kind == "tmpl" || toks[i-1].text == ")" || toks[i-1].text == "]" || toks[i-1].text == "?.")
				case "(":
					if i > 0 && (toks[i-1].kind == "name" && !jsFilterReserved[toks[i-1].text] && toks[i-1].text != "typeof" && toks[i-1].text != "in" && toks[i-1].text != "instanceof" || toks[i-1].text == ")" || toks[i-1].text == "]") {
						name := toks[i-1].text
						if i > 1 && (toks[i-2].text == "." || toks[i-2].text == "?.") {
							bad = !jsFilterMethods[name] && !(i > 2 && jsFilterFuncs[toks[i-3].text+"."+name])
						} else {
							bad = !jsFilterFuncs[name]
						}
					}
				}
			case "tmpl":
				bad = strings.Contains(tk.text, "${")
			}
			if bad {
				t.Fatalf("%q accepted, with %q at %d", s, tk.text, tk.at)
			}
		}
	})
}

// inArgs reports whether the comma at toks[i] separates a call's arguments
// (the nearest unclosed bracket before it is a call's parenthesis).
func inArgs(toks []jsTok, i int) bool {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch toks[j].text {
		case ")", "]":
			depth++
		case "(", "[":
			if depth == 0 {
				return toks[j].text == "(" && j > 0 && toks[j-1].kind == "name"
			}
			depth--
		}
	}
	return false
}
