// probe_python.go: the Python probe (inspect/probe/python, joined): how a
// call is written (one expression that reads the frame's locals() and
// globals(); the install form first executes the probe's source into a
// private module kept in sys.modules, so the program's namespace never
// gets a new name) and how its answer comes back (pydevd's rawString
// format: the str whole and unquoted).

package inspect

import (
	"fmt"
	"strconv"
)

// pySections are the Python probe's sections, in the order they are joined.
var pySections = []string{
	"core.py", "resolve.py", "clues.py", "stats.py", "order.py", "pandas.py", "numpy.py", "torch.py", "models.py", "libs.py",
	"engines.py", "filter_engines.py", "select_engines.py", "polars.py", "arrow.py", "duckdb.py", "duckdb_page.py", "dask.py", "spark.py", "ray.py",
	"builtins.py", "dispatch.py", "summaries.py", "fingerprint.py", "filter.py", "filter_safe.py", "select.py", "entry.py",
}

var pythonProbe = func() *probe {
	src := joinSources("probe/python", "_LIMITS = "+ProbeLimits.json()+"\n", pySections)
	return &probe{
		lang: Python, source: src, slot: slotName("_dapscope_probe_", src),
		fns:         []string{"run", "summarize", "select"},
		evalContext: "repl", raw: true,
		expr:        pyCall,
		decode:      func(s string) string { return s },
		listsLocals: true,
		summaryType: LibraryType,
	}
}()

// pyCall builds the evaluate expression calling the probe's entry fn with
// argsJSON (roots are read from the frame by the probe itself). locals()
// and globals() are taken at the top level of the evaluated expression,
// i.e. in the frame.
func pyCall(p *probe, fn string, _ []string, argsJSON string, install bool) string {
	a := strconv.QuoteToASCII(argsJSON)
	if !install {
		return fmt.Sprintf("(lambda m, L, G: m.%s(L, G, %s) if m is not None else %q)"+
			"(__import__('sys').modules.get(%q), locals(), globals())", fn, a, probeMissing, p.slot)
	}
	return fmt.Sprintf("(lambda L, G, m: (exec(compile(%s, '<dapscope-probe>', 'exec'), m.__dict__), "+
		"__import__('sys').modules.__setitem__(m.__name__, m), m.%s(L, G, %s))[2])"+
		"(locals(), globals(), __import__('types').ModuleType(%q))", strconv.QuoteToASCII(p.source), fn, a, p.slot)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
