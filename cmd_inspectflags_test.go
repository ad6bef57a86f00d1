package main

import (
	"flag"
	"io"
	"testing"
)

// TestInspectFlagsCount: --compute with a selection asks for its count
// (a Spark page's totals are a job of their own, counted on request);
// without --compute the page comes first.
func TestInspectFlagsCount(t *testing.T) {
	for _, c := range []struct {
		args  []string
		count bool
	}{
		{[]string{"--filter", "qty > 5", "--compute"}, true},
		{[]string{"--filter", "qty > 5"}, false},
	} {
		var f inspectFlags
		fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.register(fs, "filter")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		_, sel, _, err := f.read("json")
		if err != nil || sel == nil || sel.Count != c.count {
			t.Errorf("%v: selection %+v, %v; want count %v", c.args, sel, err, c.count)
		}
	}
}
