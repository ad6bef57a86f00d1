// This file fuzzes the Python probe's browse filters (issue 28.3): any
// text, as an agent could send it, is either a filter the probe parses and
// evaluates over the table (a page) or refused with a typed error naming
// why; never an INTERNAL failure, never a hang past the budget, and never
// an effect outside the debuggee's values: an audit hook in the fixture
// (testdata/python/filter_fuzz.py) records any process, file write,
// socket or native library a filter would cause. Seeds: the exploit of
// the issue and its relatives, and ordinary filters.

package inspect

import (
	"context"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

var filterSeeds = []string{
	"qty > 3 and city == 'Nice'",
	"`0` > 10 | flag",
	"price.isna() or city.str.contains('ic')",
	"when > '2024-01-02' and cat == 'lo'",
	"qty.between(1, 3) & ~flag",
	"a.to_list.__func__.__globals__.get('__builtins__').get('__import__').__self__.__import__('os').system('touch /tmp/x') == 0",
	"__import__('os').system('true')",
	"qty.__class__.__mro__[1].__subclasses__()",
	"(lambda: 1)() == 1",
	"[x for x in qty] == 1",
	"city.str.contains('a' * 10 ** 9)",
	"qty ** 10 ** 10 > 1",
	"getattr(qty, 'sum')() > 0",
	"qty.apply(print)",
	"`qty`.isin([1, 2]) and not price > 3",
	"",
	"((((((((((qty))))))))))",
}

func FuzzBrowseFilter(f *testing.F) {
	for _, s := range filterSeeds {
		f.Add(s)
	}
	// One harness for the whole run (a process per input would measure
	// Python's start-up, not the filters).
	h := startHarness(f, "../testdata/python/filter_fuzz.py")
	f.Fuzz(func(t *testing.T, filter string) {
		ctx := context.Background()
		res, err := Browse(ctx, h, 0, "df", Selection{Filter: filter, Rows: &RowWindow{Limit: 5}}, Options{Timeout: 2, RequestTimeout: 30})
		switch e := errcode.As(err); {
		case err == nil:
			if res.Page == nil && res.Error == nil {
				t.Fatalf("filter %q: neither a page nor an error", filter)
			}
			if res.Error != nil && res.Error.Code == errcode.Internal {
				t.Fatalf("filter %q: INTERNAL: %s", filter, res.Error.Message)
			}
		case e == nil:
			t.Fatalf("filter %q: an untyped error: %v", filter, err)
		case e.Code == errcode.Internal:
			t.Fatalf("filter %q: INTERNAL: %s", filter, e.Message)
		}
		got, aerr := h.EvaluateProbe(ctx, EvalRequest{Expression: "repr(AUDIT)", RawString: true})
		if aerr != nil || got != "[]" {
			t.Fatalf("filter %q caused %s (%v)", filter, got, aerr)
		}
	})
}
