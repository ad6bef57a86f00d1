// kernel_test.go: the MCP tools on a live Jupyter kernel (a real ipykernel;
// "the user" runs cells from a client of their own): kernel_list,
// kernel_attach with its first report (the namespace's variables), then
// debug_variables, debug_inspect_variable with a selection and a byte
// budget, debug_evaluate, debug_watch (after each execution), debug_snapshot
// and debug_diff ("what did the last cell change?"), debug_wait for the
// user's next cell, busy answers naming the cell, the tools that make no
// sense on a kernel saying what to do instead, and debug_terminate
// detaching while the kernel goes on.

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
)

func TestKernelTools(t *testing.T) {
	k := kerneltest.Start(t, "mcpkernel")
	k.Run(t, "import pandas as pd\ndf = pd.DataFrame({'price': [1.5, None, 3.0, 9.0], 'city': ['a', 'b', None, 'd']})\nn = 42")
	a, _ := newHTTPAgent(t, Options{Kernels: kernel.ListOptions{RuntimeDir: k.Dir, NoProcesses: true}})

	var list KernelListResult
	a.call("kernel_list", map[string]any{}, &list)
	if len(list.Kernels) != 1 || list.Kernels[0].ID != "mcpkernel" || list.Kernels[0].Language != "python" || list.Kernels[0].State != "idle" {
		t.Fatalf("kernel_list = %+v", list)
	}
	var at KernelAttachResult
	r := a.call("kernel_attach", map[string]any{"kernel": "mcpk"}, &at)
	if at.Kernel.ConnectionFile != k.File || at.StopReport == nil || at.Status != "paused" || at.Reason != "idle" {
		t.Fatalf("kernel_attach = %+v", at)
	}
	text := textOf(r)
	if !strings.Contains(text, "paused (idle) in namespace after In[1]") || !strings.Contains(text, "df=DataFrame 4 × 2 · 1 null in each of price, city") {
		t.Errorf("kernel_attach text:\n%s", text)
	}
	sid := at.SessionID
	var sessions SessionsResult
	a.call("debug_sessions", map[string]any{}, &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].Adapter != "kernel" || sessions.Sessions[0].Origin != "kernel" {
		t.Errorf("debug_sessions = %+v", sessions)
	}

	var vars VariablesResult
	a.call("debug_variables", map[string]any{}, &vars)
	if len(vars.Variables) != 2 || vars.Variables[0].Name != "df" || vars.Variables[0].Type != "DataFrame" ||
		!strings.HasPrefix(vars.Variables[0].Value, "DataFrame 4 × 2") || vars.Variables[1].Value != "42" {
		t.Errorf("debug_variables = %+v", vars)
	}
	var page InspectResult
	a.call("debug_inspect_variable", map[string]any{"expression": "df", "columns": []any{"price"}, "sort": []any{map[string]any{"column": "price", "descending": true}},
		"filter": "price > 1", "rows": map[string]any{"offset": 0, "limit": 2}, "max_bytes": 4096}, &page)
	if page.Page == nil || page.Page.Total() != 3 || len(page.Page.Rows) != 2 || len(page.Page.Columns) != 1 {
		t.Fatalf("debug_inspect_variable with a selection = %+v", page.Page)
	}
	if got := page.Page.Positions; len(got) != 2 || got[0] != 3 || got[1] != 2 {
		t.Errorf("sorted positions = %v, want [3 2]", got)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "n * 2"}, &ev)
	if ev.Result != "84" {
		t.Errorf("debug_evaluate = %+v", ev)
	}
	if e := a.fail("debug_evaluate", map[string]any{"expression": "nope"}); e.Code != errcode.EvaluationError || !strings.HasPrefix(e.Message, "NameError") {
		t.Errorf("debug_evaluate of a missing name = %+v", e)
	}
	a.call("debug_watch", map[string]any{"action": "add", "expression": "len(df)"}, nil)
	var snap SnapshotResult
	a.call("debug_snapshot", map[string]any{"action": "capture", "inspect": []string{"df"}, "label": "before"}, &snap)

	// The user's next cell; debug_wait returns its stop (waiting while it
	// runs), with the watch.
	k.Run(t, "df = df[df.price > 2]\nn = n + 1\nextra = [1, 2, 3]")
	var st StopReport
	for st.Description == "" || !strings.HasPrefix(st.Description, "after In[2]") {
		a.call("debug_wait", map[string]any{"timeout": 60}, &st)
	}
	if len(st.Watches) != 1 || st.Watches[0].Value != "2" || !st.Watches[0].Changed || st.Watches[0].Previous != "4" {
		t.Errorf("the watch after the cell = %+v", st.Watches)
	}
	// What did the last cell change?
	var diff DiffResult
	a.call("debug_diff", map[string]any{}, &diff)
	changed := map[string]VarChange{}
	for _, c := range diff.Changed {
		changed[c.Name] = c
	}
	if changed["n"].Before != "42" || changed["n"].After != "43" || !strings.HasPrefix(changed["df"].After, "DataFrame 2 × 2") ||
		len(diff.Added) != 1 || diff.Added[0].Name != "extra" {
		t.Errorf("debug_diff of the last cell = %+v", diff)
	}
	a.call("debug_diff", map[string]any{"from": snap.Snapshot.ID}, &diff)
	if len(diff.Inspections) != 1 || !strings.Contains(diff.Inspections[0].AfterSummary, "2 rows × 2 columns") {
		t.Errorf("debug_diff from the snapshot = %+v", diff.Inspections)
	}

	// What makes no sense on a kernel says what to do instead.
	for tool, want := range map[string]string{
		"debug_step":            "run the next cell in your notebook",
		"debug_continue":        "run the next cell in your notebook",
		"debug_set_breakpoints": "debug the cell in your notebook",
		"debug_set_variable":    "assign it in a cell of your notebook",
	} {
		args := map[string]any{"session_id": sid}
		switch tool {
		case "debug_set_breakpoints":
			args["file"], args["breakpoints"] = "go.mod", []any{map[string]any{"line": 1}}
		case "debug_set_variable":
			args["name"], args["value"] = "n", "1"
		}
		if e := a.fail(tool, args); e.Code != errcode.NotSupported || !strings.Contains(strings.ToLower(e.Message), want) {
			t.Errorf("%s on a kernel = %+v, want NOT_SUPPORTED saying %q", tool, e, want)
		}
	}

	// Busy: at once, naming the cell.
	user := k.User(t)
	done := make(chan error, 1)
	go func() {
		_, err := user.Execute(testCtx(t), "import time\ntime.sleep(3)", kernel.ExecOptions{Visible: true})
		done <- err
	}()
	for {
		var ss SessionsResult
		a.call("debug_sessions", map[string]any{}, &ss)
		if ss.Sessions[0].Status == "running" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	e := a.fail("debug_inspect_variable", map[string]any{"expression": "df"})
	if e.Code != errcode.NotPaused || e.State != "busy" || !strings.Contains(e.Message, "cell [3] (import time") {
		t.Errorf("inspect while a cell runs = %+v", e)
	}
	if e := a.fail("debug_pause", map[string]any{}); e.Code != errcode.NotSupported || !strings.Contains(e.Message, "interrupt the kernel in your notebook") {
		t.Errorf("debug_pause while a cell runs = %+v", e)
	}
	select {
	case <-done:
		t.Error("the busy answer came after the cell ended")
	default:
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// debug_terminate detaches: the kernel goes on.
	var term TerminateResult
	a.call("debug_terminate", map[string]any{"session_id": sid}, &term)
	if term.Status != "terminated" {
		t.Errorf("debug_terminate = %+v", term)
	}
	if res := k.Run(t, "print(n)"); res.Stdout != "43\n" {
		t.Errorf("the kernel after detaching printed %q", res.Stdout)
	}
}

func TestKernelToolsOverServer(t *testing.T) {
	js := kerneltest.StartServer(t)
	id := js.StartNotebook(t, "analysis.ipynb")
	user := js.User(t, id)
	if _, err := user.Execute(testCtx(t), "import numpy as np\narr = np.arange(6.0).reshape(2, 3)", kernel.ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(js.Token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := newHTTPAgent(t, Options{})
	var list KernelListResult
	r := a.call("kernel_list", map[string]any{"server_url": js.URL, "token_file": tokenFile}, &list)
	if len(list.Kernels) != 1 || list.Kernels[0].ID != id || list.Kernels[0].Notebook != "analysis.ipynb" || list.Kernels[0].Language != "python" {
		t.Fatalf("kernel_list of the server = %+v", list)
	}
	var at KernelAttachResult
	r = a.call("kernel_attach", map[string]any{"server_url": js.URL, "kernel_id": id, "token_file": tokenFile}, &at)
	if at.Kernel.Notebook != "analysis.ipynb" || !strings.Contains(textOf(r), "arr=ndarray float64 2 × 3") {
		t.Fatalf("kernel_attach over the server: %+v\n%s", at, textOf(r))
	}
	var res InspectResult
	a.call("debug_inspect_variable", map[string]any{"expression": "arr"}, &res)
	if res.Result == nil || res.DetectedType != "ndarray" {
		t.Errorf("inspect over the server = %+v", res.Result)
	}
	// A wrong token is said as such, and never shown.
	bad := filepath.Join(t.TempDir(), "bad")
	secret := kerneltest.RandomKey(t)
	if err := os.WriteFile(bad, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	r = a.raw("kernel_list", map[string]any{"server_url": js.URL, "token_file": bad})
	if !r.IsError || strings.Contains(textOf(r), secret) || strings.Contains(textOf(r), js.Token) {
		t.Errorf("kernel_list with a wrong token: %s", textOf(r))
	}
}
