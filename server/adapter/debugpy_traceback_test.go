// debugpy_traceback_test.go: debugpy's innermost-first stack trace comes out
// in Python's order; anything else passes unchanged.

package adapter

import "testing"

func TestDebugpyTraceback(t *testing.T) {
	in := "  File \"/p/r.py\", line 6, in parse\n    return int(value)\n           ^^^^^^^^^^\n" +
		"  File \"/p/r.py\", line 14, in <module>\n    load()\nValueError: bad\n"
	want := "Traceback (most recent call last):\n  File \"/p/r.py\", line 14, in <module>\n    load()\n" +
		"  File \"/p/r.py\", line 6, in parse\n    return int(value)\n           ^^^^^^^^^^\nValueError: bad\n"
	d := debugpyDriver{}
	if got := d.Traceback(in); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for _, same := range []string{"", "no frames here", want} {
		if got := d.Traceback(same); got != same {
			t.Errorf("%q changed to %q", same, got)
		}
	}
}
