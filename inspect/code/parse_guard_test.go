package code

import "testing"

// A panic while a file is parsed is its parse error, not the process's.
// sobek is not known to panic on an input today: a panic stands in for
// one.
func TestParseGuard(t *testing.T) {
	fr := &fileRec{Path: "a.js"}
	parseJSGuarded(fr, "export function f() { return 1 }\n")
	if fr.Err != "" || len(fr.Defs) == 0 {
		t.Fatalf("a good file: %+v", fr)
	}
	guard(fr, func() { panic("index out of range") })
	if fr.Err == "" || fr.Defs != nil {
		t.Fatalf("after a panic: %+v", fr)
	}
}
