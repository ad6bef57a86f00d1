// Tests of the JavaScript probe on the data libraries it recognises by duck
// typing, installed for real from npm by `make setup-node-libs`
// (apache-arrow, arquero, nodejs-polars with its native binary): one Node
// session on testdata/node/libs/tables.js stopped at its BREAK line, a
// golden result per library value in json, tui and markdown
// (testdata/golden/jslib_*; rerun with -update), and the facts the goldens
// hold asserted by name.

package inspect_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const nodeLibsProgram = "testdata/node/libs/tables.js"

var nodeLibsShared struct {
	once sync.Once
	s    *session.Session
	err  error
}

func nodeLibsSession(tb testing.TB) *session.Session {
	tb.Helper()
	for _, pkg := range []string{"apache-arrow", "arquero", "nodejs-polars", "nodejs-polars-linux-x64-gnu"} {
		if _, err := os.Stat(filepath.Join("..", "testdata", "node", "libs", "node_modules", pkg, "package.json")); err != nil {
			tb.Fatalf("%s is not installed: run `make setup-node-libs` (%v)", pkg, err)
		}
	}
	nodeLibsShared.once.Do(func() {
		var mgr *session.Manager
		mgr, nodeLibsShared.s, nodeLibsShared.err = launchStopped(tb, "node", nodeLibsProgram,
			session.Breakpoint{File: nodeLibsProgram, Line: jsBreakLine(tb, nodeLibsProgram)})
		if mgr != nil {
			inspect.AfterTests = append(inspect.AfterTests, func() { mgr.Close() })
		}
	})
	if nodeLibsShared.err != nil {
		tb.Fatalf("node session on %s: %v", nodeLibsProgram, nodeLibsShared.err)
	}
	return nodeLibsShared.s
}

var jsLibCases = []struct{ name, expr string }{
	{"arrow_table", "arrowTable"},
	{"arrow_vector", "arrowVector"},
	{"arquero_table", "aqTable"},
	{"arquero_filtered", "aqFiltered"},
	{"polars_dataframe", "plFrame"},
	{"polars_series", "plSeries"},
	{"polars_column", "plFrame.city"},
}

// TestNodeLibsGoldens: every library value against its golden json, tui
// (width 100) and markdown rendering.
func TestNodeLibsGoldens(t *testing.T) {
	s := nodeLibsSession(t)
	for _, c := range jsLibCases {
		t.Run(c.name, func(t *testing.T) {
			res, err := inspect.Inspect(context.Background(), s, 0, c.expr, jsFull())
			if err != nil {
				t.Fatalf("Inspect(%q): %v", c.expr, err)
			}
			if res.Partial {
				t.Errorf("unexpected partial result (timed out %v, warnings %v)", res.TimedOut, res.Warnings)
			}
			name := "jslib_" + c.name
			inspect.CheckGolden(t, name, inspect.Normalize(t, res))
			for f, ext := range map[string]string{"tui": ".tui.txt", "markdown": ".md"} {
				out, err := inspect.Format(res, f, 100)
				if err != nil {
					t.Fatal(err)
				}
				inspect.CheckTextGolden(t, name+ext, out)
			}
		})
	}
}

// TestNodeLibsFacts: shape, the library's dtypes, nulls and statistics of
// each value, by name.
func TestNodeLibsFacts(t *testing.T) {
	s := nodeLibsSession(t)
	get := func(expr string) *inspect.Result {
		t.Helper()
		r, err := inspect.Inspect(context.Background(), s, 0, expr, jsFull())
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return r
	}
	col := func(r *inspect.Result, name string) inspect.Column {
		for _, c := range r.Structure.Columns {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("%s: no column %q in %+v", r.Name, name, r.Structure.Columns)
		return inspect.Column{}
	}
	nulls := func(c inspect.Column) int64 {
		if c.NullCount == nil {
			return -1
		}
		return *c.NullCount
	}
	tables := []struct {
		expr, typ, detected string
		rows                int64
		dtypes              map[string]string
	}{
		{"arrowTable", "Table", inspect.TypeArrow, 40, map[string]string{"id": "Int32", "price": "Float64", "city": "Dictionary<Int32, Utf8>", "paid": "Bool"}},
		{"aqTable", "ColumnTable", inspect.TypeDataFrame, 40, map[string]string{"id": "int32", "city": "string", "qty": "number", "paid": "boolean"}},
		{"aqFiltered", "ColumnTable", inspect.TypeDataFrame, 10, map[string]string{"city": "string"}},
		{"plFrame", "DataFrame", inspect.TypeDataFrame, 40, map[string]string{"id": "Int32", "price": "Float64", "city": "String", "qty": "Float64"}},
	}
	for _, tc := range tables {
		r := get(tc.expr)
		if r.Type != tc.typ || r.DetectedType != tc.detected || len(r.Structure.Shape) != 2 || r.Structure.Shape[0] != tc.rows {
			t.Errorf("%s: %s %s %v", tc.expr, r.Type, r.DetectedType, r.Structure.Shape)
			continue
		}
		for name, dt := range tc.dtypes {
			if c := col(r, name); c.Dtype != dt {
				t.Errorf("%s.%s dtype %q, want %q", tc.expr, name, c.Dtype, dt)
			}
		}
		if c := col(r, "city"); tc.rows == 40 && nulls(c) != 4 {
			t.Errorf("%s.city nulls %d, want 4", tc.expr, nulls(c))
		}
		if r.Preview == nil || len(r.Preview.Head) != 5 || r.Statistics == nil || len(r.Statistics.Columns) != len(r.Structure.Columns) {
			t.Errorf("%s: preview %+v, statistics %+v", tc.expr, r.Preview, r.Statistics)
		}
	}
	// JavaScript values print JavaScript's way in tui and markdown.
	at := get("arrowTable")
	for _, f := range []string{"tui", "markdown"} {
		out, _ := inspect.Format(at, f, 100)
		if at.Language != "javascript" || !strings.Contains(out, "top: true") || strings.Contains(out, "True") || strings.Contains(out, "False") {
			t.Errorf("%s of a JavaScript table prints Python booleans:\n%s", f, out)
		}
	}
	// NaN in a float column is a value, not a null: counted as NaN. A
	// boolean column is read as booleans (arrow stores a bitmap).
	for _, expr := range []string{"arrowTable", "plFrame", "aqTable"} {
		r := get(expr)
		for _, c := range r.Statistics.Columns {
			if c.Name == "price" && (c.NaNCount == nil || *c.NaNCount != 4) {
				t.Errorf("%s.price NaN count %v, want 4", expr, c.NaNCount)
			}
			if c.Name == "paid" && (c.TrueCount == nil || *c.TrueCount != 26) {
				t.Errorf("%s.paid true count %v, want 26", expr, c.TrueCount)
			}
		}
	}
	for _, tc := range []struct{ expr, typ, dtype, name string }{
		{"arrowVector", "Vector", "Int32", ""},
		{"plSeries", "Series", "Float64", "qty"},
		{"plFrame.city", "Series", "String", "city"},
	} {
		r := get(tc.expr)
		if r.Type != tc.typ || r.DetectedType != inspect.TypeSeries || r.Structure.Dtype != tc.dtype || r.Structure.Length == nil || *r.Structure.Length != 40 {
			t.Errorf("%s: %s %s dtype %q", tc.expr, r.Type, r.DetectedType, r.Structure.Dtype)
		}
		want := int64(5)
		if tc.expr == "plFrame.city" {
			want = 4
		}
		if len(r.Structure.Columns) != 1 || nulls(r.Structure.Columns[0]) != want {
			t.Errorf("%s: nulls %+v, want %d", tc.expr, r.Structure.Columns, want)
		}
	}
}

// TestNodeJSPaths: paths in JavaScript's grammar reach real values ($ in
// names, reserved words as property names); a reserved word as a variable
// is refused before anything is evaluated.
func TestNodeJSPaths(t *testing.T) {
	s := nodeLibsSession(t)
	for expr, want := range map[string]any{"$opts.class": nil, "$opts.default": "3", "$opts.$inner.new": "true", "$opts.from[-1]": "3"} {
		r, err := inspect.Inspect(context.Background(), s, 0, expr, inspect.Options{})
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if want == nil {
			if r.DetectedType != inspect.TypeStr || r.Preview == nil || r.Preview.Text != "first" {
				t.Errorf("%s: %s %+v", expr, r.DetectedType, r.Preview)
			}
		} else if fmt.Sprint(r.Structure.Value) != want {
			t.Errorf("%s = %v, want %v", expr, r.Structure.Value, want)
		}
	}
	_, err := inspect.Inspect(context.Background(), s, 0, "class", inspect.Options{})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.InvalidExpression {
		t.Errorf("a reserved word as a variable: %v", err)
	}
}
