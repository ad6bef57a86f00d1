// ipython_test.go: the probe's namespace listing in an IPython namespace (a
// Jupyter kernel's), without a kernel: testdata/ipython_harness.py runs
// cells in a real IPython InteractiveShell as a notebook does (In, Out,
// _N, _iN, history) and evaluates the probe as ipykernel's
// user_expressions does. The listing shows the user's variables only:
// not IPython's caches and tools (unless rebound by the user), modules,
// functions or classes; `all` shows everything; the probe is installed
// in sys.modules and adds no name to the namespace.

package inspect

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// startIPython runs cells in a fresh IPython shell behind a harness.
func startIPython(t *testing.T, cells []string) *pyHarness {
	t.Helper()
	if err := exec.Command(python, "-c", "import IPython").Run(); err != nil {
		if goldenPython() {
			t.Fatalf("Debian's python3 needs IPython (python3-ipykernel): %v", err)
		}
		t.Skipf("%s has no IPython: the kernel namespace table needs it", python)
	}
	arg, _ := json.Marshal(cells)
	cmd := exec.Command(python, "testdata/ipython_harness.py", string(arg))
	return startHarnessCmd(t, cmd)
}

// query asks the harness something other than an evaluation.
func (h *pyHarness) query(t *testing.T, req any) string {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	line, _ := json.Marshal(req)
	if _, err := h.in.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	resp, err := h.out.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Result string `json:"result"`
		Error  string `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || r.Error != "" {
		t.Fatalf("harness query %s: %s %v", line, r.Error, err)
	}
	return r.Result
}

func TestProbeIPythonNamespace(t *testing.T) {
	h := startIPython(t, []string{
		"import os, json\nimport pandas as pd\nfrom collections import OrderedDict",
		"df = pd.DataFrame({'price': [1.5, None, 3.0]})\ndef helper():\n    return 1\nclass Thing:\n    pass\n_private = 3\nx = 5",
		"x * 2",                      // Out[3], _3, _
		"globals()['exit'] = 'mine'", // a user's own value under an IPython name (exit = … is autocalled)
		"df.shape",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	names := func(all bool) []string {
		t.Helper()
		items, err := SummariesWith(ctx, h, 7, nil, SummaryOptions{Timeout: 2 * time.Second, All: all})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range items {
			out = append(out, it.Name)
		}
		return out
	}
	before := h.query(t, map[string]any{"names": true})
	// (exit keeps its place from IPython's start: the namespace's order.)
	if got := strings.Join(names(false), ","); got != "exit,df,_private,x" {
		t.Errorf("user variables = %s, want exit,df,_private,x (no In/Out/_N/_iN/get_ipython/quit, modules, functions, classes)", got)
	}
	all := names(true)
	for _, want := range []string{"In", "Out", "get_ipython", "quit", "_", "_i3", "_3", "os", "pd", "OrderedDict", "helper", "Thing", "df", "exit"} {
		if !slices.Contains(all, want) {
			t.Errorf("all names %v lack %s", all, want)
		}
	}
	items, err := SummariesWith(ctx, h, 7, nil, SummaryOptions{Timeout: 2 * time.Second})
	if err != nil || len(items) != 4 || items[1].Name != "df" || !strings.HasPrefix(items[1].Line(), "DataFrame 3 × 1 · 1 null in price") {
		t.Errorf("df's summary = %+v, %v", items, err)
	}
	if after := h.query(t, map[string]any{"names": true}); after != before {
		t.Errorf("the probe changed the namespace's names:\nbefore %s\nafter  %s", before, after)
	}
	if h.query(t, map[string]any{"module": pythonProbe.slot}) != "true" {
		t.Errorf("the probe is not in sys.modules as %s", pythonProbe.slot)
	}
}
