// Tests of the DAP-variables fallback against real Delve: one session on
// testdata/go/inspect stopped at its BREAK line; goldens per value kind.

package inspect_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func TestDelveFallback(t *testing.T) {
	prog := "testdata/go/inspect/main.go"
	mgr, s, err := launchStopped(t, "dlv", "testdata/go/inspect", session.Breakpoint{File: prog, Line: breakLine(t, prog)})
	if err != nil {
		t.Fatalf("delve session: %v", err)
	}
	defer mgr.Close()
	if s.Adapter() != "dlv" {
		t.Fatalf("adapter %q", s.Adapter())
	}
	ctx := context.Background()
	cases := []struct {
		name, expr string
		code       errcode.Code
	}{
		{"go_slice", "nums", ""},
		{"go_slice_1000", "big", ""},
		{"go_array", "arr", ""},
		{"go_map", "ages", ""},
		{"go_struct", "pt", ""},
		{"go_pointer", "ptr", ""},
		{"go_pointer_nil", "nilPtr", ""},
		{"go_struct_nested", "cache", ""},
		{"go_path", "cache.Items[1]", ""},
		{"go_map_key", "ages['bob']", ""},
		{"go_string", "text", ""},
		{"go_slice_empty", "empty", ""},
		{"go_slice_nil", "nilSlice", ""},
		{"go_slice_nested", "matrix", ""},
		{"go_int", "count", ""},
		{"go_float", "ratio", ""},
		{"go_bool", "ok", ""},
		{"go_error_not_found", "nope", errcode.VariableNotFound},
		{"go_error_negative_index", "nums[-1]", errcode.InvalidExpression},
		{"go_error_call", "len(nums)", errcode.InvalidExpression},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := inspect.Inspect(ctx, s, 0, c.expr, inspect.Options{})
			if c.code != "" {
				var ie *errcode.Error
				if !errors.As(err, &ie) || ie.Code != c.code {
					t.Fatalf("want %s, got %v", c.code, err)
				}
				inspect.CheckGolden(t, c.name, inspect.Normalize(t, ie))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Source != "variables" || res.Summary == "" {
				t.Fatalf("source %q summary %q", res.Source, res.Summary)
			}
			inspect.CheckGolden(t, c.name, inspect.Normalize(t, res))
		})
	}
	// Once the program runs on, inspection fails fast with NOT_PAUSED.
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = inspect.Inspect(ctx, s, 0, "nums", inspect.Options{})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.NotPaused || ie.State == "paused" {
		t.Fatalf("after continue: want NOT_PAUSED, got %v", err)
	}
}
