// Tests of the one table of codes: every code has its entry, no other
// package declares a code of its own, the probes answer only with codes of
// the table, and From keeps a typed error and names a context's end.

package errcode

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func declaredCodes(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errcode.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Code" {
				v, _ := strconv.Unquote(vs.Values[0].(*ast.BasicLit).Value)
				out[vs.Names[0].Name] = v
			}
		}
	}
	return out
}

func TestEveryCodeHasAnEntry(t *testing.T) {
	codes := declaredCodes(t)
	if len(codes) != len(table) {
		t.Errorf("%d codes declared, %d in the table", len(codes), len(table))
	}
	for name, v := range codes {
		if _, ok := table[Code(v)]; !ok {
			t.Errorf("%s (%s) has no entry in the table", name, v)
		}
	}
	if InvalidArgument.DAPID() == NotPaused.DAPID() || Code("NOPE").DAPID() != dapInternal {
		t.Error("DAP ids: distinct codes share an id, or an unknown code is not internal")
	}
}

// TestNoCodeDeclaredTwice: no other package declares a constant whose value
// is one of the codes (the vocabulary lives here only).
func TestNoCodeDeclaredTwice(t *testing.T) {
	values := map[string]bool{}
	for _, v := range declaredCodes(t) {
		values[strconv.Quote(v)] = true
	}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == filepath.Join("..", "errcode") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, sp := range g.Specs {
					for _, v := range sp.(*ast.ValueSpec).Values {
						if lit, ok := v.(*ast.BasicLit); ok && values[lit.Value] {
							t.Errorf("%s declares the code %s again: use errcode", path, lit.Value)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProbeCodesAreTheTables: every code the probes put in an answer
// ({code: ...} or ProbeError(code, ...)) is a code of the table.
func TestProbeCodesAreTheTables(t *testing.T) {
	re := regexp.MustCompile(`(?:ProbeError\(|'code':\s*|code:\s*)['"]([A-Z][A-Z_]+)['"]`)
	seen := 0
	for _, glob := range []string{"../inspect/probe/python/*.py", "../inspect/probe/javascript/*.js"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				seen++
				if _, ok := table[Code(m[1])]; !ok {
					t.Errorf("%s answers with %s, which is not a code of the table", f, m[1])
				}
			}
		}
	}
	if seen < 5 {
		t.Fatalf("found only %d codes in the probes' sources: the pattern no longer matches them", seen)
	}
}

func TestFrom(t *testing.T) {
	typed := Invalid("limit", "must be 1..10")
	for _, c := range []struct {
		err  error
		want Code
	}{
		{fmt.Errorf("wrapped: %w", typed), InvalidArgument},
		{context.Canceled, Cancelled},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), Timeout},
		{errors.New("boom"), Internal},
	} {
		if got := From(c.err); got.Code != c.want || got.Message == "" {
			t.Errorf("From(%v) = %+v, want %s", c.err, got, c.want)
		}
	}
	if From(nil) != nil || From(fmt.Errorf("x: %w", typed)) != typed {
		t.Error("From(nil) is nil and a typed error is kept as it is")
	}
	if typed.Error() != "INVALID_ARGUMENT: limit: must be 1..10" {
		t.Errorf("Error() = %q", typed.Error())
	}
}
