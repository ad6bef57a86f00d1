// Tests of the JavaScript probe against real Node through dapscope's Node
// adapter (server/session): one shared session on
// testdata/node/inspect_values.js stopped at its BREAK line; a golden result
// for every kind of value in json, tui and markdown; the probe installed once;
// and bad input: an expression that throws, one that never returns, a 50 MB
// string, a 1M-element array of records.

package inspect_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const nodeProgram = "testdata/node/inspect_values.js"

var nodeShared struct {
	once sync.Once
	s    *session.Session
	err  error
}

// jsBreakLine finds the line marked "// BREAK" in a workspace file.
func jsBreakLine(tb testing.TB, rel string) int {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", rel))
	if err != nil {
		tb.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// BREAK") {
			return i + 1
		}
	}
	tb.Fatalf("no // BREAK line in %s", rel)
	return 0
}

// nodeSession is the one Node session shared by tests and benchmarks.
func nodeSession(tb testing.TB) *session.Session {
	tb.Helper()
	nodeShared.once.Do(func() {
		var mgr *session.Manager
		mgr, nodeShared.s, nodeShared.err = launchStopped(tb, "node", nodeProgram,
			session.Breakpoint{File: nodeProgram, Line: jsBreakLine(tb, nodeProgram)})
		if mgr != nil {
			inspect.AfterTests = append(inspect.AfterTests, func() { mgr.Close() })
		}
	})
	if nodeShared.err != nil {
		tb.Fatalf("node session: %v", nodeShared.err)
	}
	return nodeShared.s
}

type jsCase struct {
	name, expr string
	opts       inspect.Options
	errCode    errcode.Code
}

func jsFull() inspect.Options { return inspect.Options{Timeout: 10, RequestTimeout: 60} }

var jsCases = []jsCase{
	// tables: arrays of records
	{name: "records", expr: "rows"},
	{name: "records_ragged", expr: "ragged"},
	{name: "records_tiny", expr: "tiny"},
	{name: "records_no_stats", expr: "rows", opts: inspect.Options{Timeout: 10, IncludeStatistics: inspect.Bool(false)}},
	{name: "records_item", expr: "rows[-1]"},
	{name: "records_column_value", expr: "rows[3].price"},
	// arrays
	{name: "array_numbers", expr: "numbers"},
	{name: "array_holes", expr: "holes"},
	{name: "array_mixed", expr: "mixed"},
	{name: "array_strings", expr: "words"},
	{name: "array_nested", expr: "nested"},
	{name: "array_selfref", expr: "selfref"},
	// typed arrays and bytes
	{name: "float64array", expr: "f64"},
	{name: "int32array", expr: "i32"},
	{name: "uint8array", expr: "u8"},
	{name: "bigint64array", expr: "bigs"},
	{name: "buffer", expr: "buf"},
	{name: "arraybuffer", expr: "ab"},
	// collections
	{name: "map", expr: "byName"},
	{name: "map_item", expr: "byName['two']"},
	{name: "map_number_keys", expr: "byNum"},
	{name: "set", expr: "tags"},
	{name: "weakmap", expr: "weakMap"},
	{name: "weakset", expr: "weakSet"},
	// objects
	{name: "class_instance", expr: "pt"},
	{name: "class_inherited_getters", expr: "pt3"},
	{name: "object_plain", expr: "plain"},
	{name: "object_null_proto", expr: "bare"},
	{name: "object_selfref", expr: "selfobj"},
	{name: "object_hostile", expr: "hostile"},
	{name: "proxy", expr: "proxy"},
	{name: "date", expr: "when"},
	{name: "date_invalid", expr: "badDate"},
	{name: "regexp", expr: "pattern"},
	{name: "error", expr: "err"},
	{name: "promise_fulfilled", expr: "resolved"},
	{name: "promise_pending", expr: "pending"},
	{name: "function", expr: "fn"},
	{name: "function_arrow", expr: "arrow"},
	{name: "function_async", expr: "asyncFn"},
	{name: "class", expr: "klass"},
	// text and scalars
	{name: "string_long", expr: "text"},
	{name: "string_surrogate", expr: "emoji"},
	{name: "string_short", expr: "shortText"},
	{name: "number_int", expr: "n"},
	{name: "number_float", expr: "ratio"},
	{name: "number_nan", expr: "notANumber"},
	{name: "bigint", expr: "big"},
	{name: "boolean", expr: "flag"},
	{name: "null", expr: "nothing"},
	{name: "undefined", expr: "missing"},
	{name: "symbol", expr: "sym"},
	// errors
	{name: "error_not_found", expr: "nope", errCode: errcode.VariableNotFound},
	{name: "error_no_property", expr: "plain.nope", errCode: errcode.VariableNotFound},
	{name: "error_index", expr: "numbers[500]", errCode: errcode.VariableNotFound},
	{name: "error_map_key", expr: "byName['zz']", errCode: errcode.VariableNotFound},
	{name: "error_of_null", expr: "nothing.x", errCode: errcode.InvalidExpression},
	{name: "error_getter_throws", expr: "thrower.boom", errCode: errcode.VariableNotFound},
	{name: "error_call", expr: "rows.slice(1)", errCode: errcode.InvalidExpression},
	{name: "error_keyword", expr: "new", errCode: errcode.InvalidExpression},
}

// TestNodeGoldens: every case against its golden json, tui (width 100) and
// markdown rendering (testdata/golden/js_*); rerun with -update to rewrite.
func TestNodeGoldens(t *testing.T) {
	s := nodeSession(t)
	for _, c := range jsCases {
		t.Run(c.name, func(t *testing.T) {
			opts := c.opts
			if opts == (inspect.Options{}) {
				opts = jsFull()
			}
			res, err := inspect.Inspect(context.Background(), s, 0, c.expr, opts)
			name := "js_" + c.name
			if c.errCode != "" {
				var ie *errcode.Error
				if !errors.As(err, &ie) || ie.Code != c.errCode {
					t.Fatalf("want %s, got %v (result %+v)", c.errCode, err, res)
				}
				inspect.CheckGolden(t, name, inspect.Normalize(t, ie))
				inspect.CheckTextGolden(t, name+".tui.txt", inspect.FormatError(c.expr, ie, "tui", 100))
				inspect.CheckTextGolden(t, name+".md", inspect.FormatError(c.expr, ie, "markdown", 100))
				return
			}
			if err != nil {
				t.Fatalf("Inspect(%q): %v", c.expr, err)
			}
			if res.Partial {
				t.Errorf("unexpected partial result (timed out: %v)", res.TimedOut)
			}
			if res.Source != "probe" {
				t.Errorf("source = %q, want the probe", res.Source)
			}
			inspect.CheckGolden(t, name, inspect.Normalize(t, res))
			for _, f := range []string{"tui", "markdown"} {
				out, err := inspect.Format(res, f, 100)
				if err != nil {
					t.Fatal(err)
				}
				ext := map[string]string{"tui": ".tui.txt", "markdown": ".md"}[f]
				inspect.CheckTextGolden(t, name+ext, out)
			}
		})
	}
}

// Facts the goldens hold, asserted by name so that a regenerated golden
// cannot silently lose them.
func TestNodeFacts(t *testing.T) {
	s := nodeSession(t)
	get := func(expr string) *inspect.Result {
		t.Helper()
		r, err := inspect.Inspect(context.Background(), s, 0, expr, jsFull())
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return r
	}
	rows := get("rows")
	if rows.DetectedType != inspect.TypeDataFrame || len(rows.Structure.Shape) != 2 || rows.Structure.Shape[0] != 1000 || rows.Structure.Shape[1] != 7 {
		t.Fatalf("rows: %s %v", rows.DetectedType, rows.Structure.Shape)
	}
	cols := map[string]inspect.Column{}
	for _, c := range rows.Structure.Columns {
		cols[c.Name] = c
	}
	if c := cols["price"]; c.Dtype != "number" || c.NullCount == nil || *c.NullCount != 11 {
		t.Errorf("price column: %+v", c)
	}
	if c := cols["note"]; c.NullCount == nil || *c.NullCount != 100 {
		t.Errorf("note column (undefined every 10th row): %+v", c)
	}
	if !strings.Contains(rows.Summary, "1,000 rows × 7 columns") {
		t.Errorf("rows summary: %q", rows.Summary)
	}
	// Getters are listed, never run: pt3's norm would throw.
	pt3 := get("pt3")
	if !inspect.Contains(pt3.Structure.Properties, "norm") || !inspect.Contains(pt3.Structure.Properties, "volume") {
		t.Errorf("pt3 getters: %v", pt3.Structure.Properties)
	}
	// A string is cut on a character boundary: the emoji is whole or absent.
	emoji := get("emoji")
	if !utf8.ValidString(emoji.Preview.Text) || strings.ContainsRune(emoji.Preview.Text, utf8.RuneError) {
		t.Errorf("emoji preview cut inside a surrogate pair: %q", emoji.Preview.Text)
	}
	// The Proxy's traps never ran (they throw).
	if p := get("proxy"); p.DetectedType != inspect.TypeProxy || !strings.Contains(p.Preview.Repr, "secret") {
		t.Errorf("proxy: %+v %+v", p, p.Preview)
	}
}

// TestNodeBadInput: an expression that throws, one that never returns
// (bounded by the adapter's evaluation timeout; the session stays usable),
// a 50 MB string, a 1M-element array of records.
func TestNodeBadInput(t *testing.T) {
	s := nodeSession(t)
	ctx := context.Background()
	_, err := inspect.Inspect(ctx, s, 0, "thrower.boom", inspect.Options{})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.VariableNotFound || !strings.Contains(ie.Message, "RangeError: getter failed") {
		t.Fatalf("a throwing getter: %v", err)
	}
	_, err = inspect.Inspect(ctx, s, 0, "looper.forever", inspect.Options{RequestTimeout: 60})
	if !errors.As(err, &ie) || ie.Code != errcode.InspectionTimeout {
		t.Fatalf("a getter that never returns: want INSPECTION_TIMEOUT, got %v", err)
	}
	if r, err := inspect.Inspect(ctx, s, 0, "n", inspect.Options{}); err != nil || r.Structure.Value == nil {
		t.Fatalf("the session after a runaway getter: %v %+v", err, r)
	}
	big, err := inspect.Inspect(ctx, s, 0, "huge.text", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *big.Structure.Length != 50*1024*1024 || len(big.Preview.Text) > 1000 || !big.Preview.IsTruncated {
		t.Errorf("50 MB string: length %d, preview %d bytes", *big.Structure.Length, len(big.Preview.Text))
	}
	start := time.Now()
	many, err := inspect.Inspect(ctx, s, 0, "huge.rows", inspect.Options{Timeout: 1})
	if err != nil {
		t.Fatal(err)
	}
	if many.DetectedType != inspect.TypeDataFrame || many.Structure.Shape[0] != 1000000 {
		t.Fatalf("1M records: %s %v", many.DetectedType, many.Structure.Shape)
	}
	if n := inspect.Size(many); n > inspect.MaxResultBytes {
		t.Errorf("1M records: %d bytes, over the cap", n)
	}
	t.Logf("1M records in %v (partial %v, timed out %v)", time.Since(start), many.Partial, many.TimedOut)
	if r, err := inspect.Inspect(ctx, s, 0, "flag", inspect.Options{}); err != nil || r.Structure.Value != true {
		t.Fatalf("the session after big values: %v", err)
	}
}

// TestNodeProbeInstalledOnce: the probe lives in the debuggee under its
// versioned global symbol, and the session remembers it.
func TestNodeProbeInstalledOnce(t *testing.T) {
	s := nodeSession(t)
	ctx := context.Background()
	if _, err := inspect.Inspect(ctx, s, 0, "flag", inspect.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Values().Load("inspect.probe." + inspect.JSProbeKey); !ok {
		t.Fatal("the session does not remember the installed probe")
	}
	fr, err := s.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	body, err := s.Evaluate(ctx, "typeof globalThis[Symbol.for('"+inspect.JSProbeKey+"')].run", fr.Id, "watch")
	if err != nil || body.Result != "'function'" {
		t.Fatalf("probe not installed: %+v %v", body, err)
	}
}
