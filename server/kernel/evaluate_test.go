//go:build linux

// evaluate_test.go: evaluation and execution against a real ipykernel, and
// the no-trace guarantee of the silent evaluation checked from the user's
// own notebook client (jupyter_client), with a visible execution beside it
// to show that the checks catch a trace.

package kernel

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestEvaluateAndExecute(t *testing.T) {
	k := startKernel(t)
	c := k.dial(t, Options{})
	ctx := testCtx(t, 60*time.Second)

	if got := c.Info().Language(); got != "python" {
		t.Errorf("language = %q, want python", got)
	}
	if st := c.State(); st.Execution != StateIdle || st.Liveness != LiveAlive {
		t.Errorf("state after attach = %+v, want idle and alive", st)
	}
	// Strings come back exactly, whatever their repr looks like.
	for _, want := range []string{"", "plain", "it's", `say "hi"`, "both ' and \"", "back\\slash",
		"tab\tnew\nline\r", "\x00\x07\x1b\x7f", "é ü 中文 😀", "\u2028\u0085\u00a0", strings.Repeat("long ", 20000)} {
		expr := "__import__('json').loads(" + pyQuote(mustJSON(want)) + ")"
		got, err := c.Evaluate(ctx, expr, CallOptions{})
		if err != nil {
			t.Fatalf("Evaluate(%q): %v", clipText(want, 30), err)
		}
		if got != want {
			t.Errorf("Evaluate round trip: got %q, want %q", clipText(got, 60), clipText(want, 60))
		}
	}
	if _, err := c.Execute(ctx, "x = 6 * 7\nprint('printed', x)", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.EvaluateRepr(ctx, "x", CallOptions{}); err != nil || got != "42" {
		t.Errorf("EvaluateRepr(x) = %q, %v; want 42", got, err)
	}
	if _, err := c.Evaluate(ctx, "x", CallOptions{}); err == nil || !strings.Contains(err.Error(), "not a str") {
		t.Errorf("Evaluate of an int: err = %v, want 'not a str'", err)
	}
	res, err := c.Execute(ctx, "import sys\nprint('out')\nprint('err', file=sys.stderr)\n1/0", ExecOptions{})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "ZeroDivisionError" {
		t.Fatalf("Execute raising: err = %v, want ZeroDivisionError", err)
	}
	if res.Stdout != "out\n" || res.Stderr != "err\n" || res.Status != "error" {
		t.Errorf("Execute outputs = %q / %q / %s", res.Stdout, res.Stderr, res.Status)
	}
	_, err = c.Evaluate(ctx, "undefined_name", CallOptions{})
	if !errors.As(err, &ee) || ee.Name != "NameError" {
		t.Errorf("Evaluate of an undefined name: %v, want NameError", err)
	}
	// Jupyter's own inspect_request answers repr text about a variable.
	in, err := c.Inspect(ctx, "x", 1, 0, CallOptions{})
	if err != nil || !in.Found || !strings.Contains(in.Data["text/plain"].(string), "42") {
		t.Errorf("Inspect(x) = %+v, %v", in, err)
	}
	// The kernel still works as a notebook after all this.
	vis, err := c.Execute(ctx, "x + 1", ExecOptions{Visible: true})
	if err != nil || vis.ExecutionCount != 1 || vis.Result["text/plain"] != "43" {
		t.Errorf("visible Execute = %+v, %v; want In[1] with 43", vis, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// pyQuote makes a Python str literal of an ASCII JSON text.
func pyQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// userSnapshot is what the user's namespace and history look like, taken
// by a cell of the user's own client that defines no name itself.
type userSnapshot struct {
	Count int      `json:"count"`
	Names []string `json:"names"`
	In    []string `json:"In"`
	Out   []string `json:"Out"`
	Hist  []string `json:"hist"`
}

const snapshotCell = `print(__import__('json').dumps({'count': get_ipython().execution_count, ` +
	`'names': sorted(globals()), 'In': list(In), 'Out': [repr(v) for v in Out.values()], ` +
	`'hist': [h[2] for h in get_ipython().history_manager.get_range()]}))`

// settle lets a call wait for the idle status of the user's cell that
// just ended (IOPub reaches each client on its own time).
var settle = CallOptions{Wait: 10 * time.Second}

func takeSnapshot(t *testing.T, u *userClient) userSnapshot {
	t.Helper()
	r := u.execute(snapshotCell)
	var s userSnapshot
	if err := json.Unmarshal([]byte(r.Stdout()), &s); err != nil {
		t.Fatalf("snapshot cell printed %q: %v", r.Stdout(), err)
	}
	return s
}

// traces lists what changed between two snapshots beyond the effects of the
// snapshot cell itself (one In entry, one count, its _iN name). The cell's
// own N is len(In)-1 (In[0] is ”): the execution count it reads is N on
// IPython 8 and before, N+1 on IPython 9 (which counts before running).
func traces(a, b userSnapshot, marker string) []string {
	var out []string
	own := "_i" + strconv.Itoa(len(b.In)-1)
	if b.Count != a.Count+1 {
		out = append(out, "execution_count moved by "+strconv.Itoa(b.Count-a.Count-1))
	}
	if len(b.In) != len(a.In)+1 {
		out = append(out, "In grew by "+strconv.Itoa(len(b.In)-len(a.In)-1))
	}
	for _, n := range b.Names {
		if !slices.Contains(a.Names, n) && n != own {
			out = append(out, "new name "+n)
		}
	}
	if len(b.Out) != len(a.Out) {
		out = append(out, "Out grew")
	}
	for _, s := range append(append(b.In, b.Out...), b.Hist...) {
		if strings.Contains(s, marker) {
			out = append(out, "history/In/Out holds "+clipText(s, 60))
		}
	}
	return out
}

func TestSilentEvaluateLeavesNoTrace(t *testing.T) {
	k := startKernel(t)
	c := k.dial(t, Options{}) // waits for the kernel to listen
	u := startUserClient(t, k.file)
	if r := u.execute("import pandas as pd\ndf = pd.DataFrame({'a': range(5)})\nseen = 1"); r.Reply.Status != "ok" {
		t.Fatalf("user cell: %+v", r)
	}
	ctx := testCtx(t, 60*time.Second)
	u.foreign() // what attaching caused (statuses) is not under test here

	before := takeSnapshot(t, u)
	for range 3 {
		got, err := c.Evaluate(ctx, "'dapscope-marker-' + str(len(df))", settle)
		if err != nil || got != "dapscope-marker-5" {
			t.Fatalf("Evaluate = %q, %v", got, err)
		}
	}
	if got, err := c.EvaluateRepr(ctx, "df.shape", settle); err != nil || got != "(5, 1)" {
		t.Fatalf("EvaluateRepr = %q, %v", got, err)
	}
	seen := u.foreignUntil(c.Session(), 4)
	after := takeSnapshot(t, u)
	if tr := traces(before, after, "dapscope-marker"); len(tr) > 0 {
		t.Errorf("the silent evaluation left traces: %v", tr)
	}
	ours := 0
	for _, m := range seen {
		if m.ParentSession != c.Session() {
			continue
		}
		ours++
		if m.MsgType != "status" {
			t.Errorf("the user's client saw our %s: %s", m.MsgType, m.Content)
		}
	}
	if ours == 0 {
		t.Errorf("the user's client saw no status of ours: the IOPub check cannot see anything (%d foreign messages)", len(seen))
	}

	// The same checks catch a visible execution of the same expression
	// (after the snapshot cell's idle status, as the evaluations above).
	if _, err := c.Execute(ctx, "'dapscope-marker-' + str(len(df))", ExecOptions{Visible: true, CallOptions: settle}); err != nil {
		t.Fatal(err)
	}
	seen = u.foreignUntil(c.Session(), 1)
	visible := takeSnapshot(t, u)
	tr := traces(after, visible, "dapscope-marker")
	if !slices.Contains(tr, "execution_count moved by 1") || !slices.Contains(tr, "Out grew") {
		t.Errorf("a visible execution was not caught by the checks: %v", tr)
	}
	var types []string
	for _, m := range seen {
		if m.ParentSession == c.Session() {
			types = append(types, m.MsgType)
		}
	}
	if !slices.Contains(types, "execute_input") || !slices.Contains(types, "execute_result") {
		t.Errorf("the user's client saw %v of a visible execution, want execute_input and execute_result", types)
	}
	// The user's notebook goes on as before.
	if r := u.execute("print(seen + 1)"); r.Stdout() != "2\n" {
		t.Errorf("user cell after ours printed %q", r.Stdout())
	}
}

// TestExecuteAbortedAfterAFailedCell: what was queued behind a cell that
// raised is aborted by ipykernel without running; the answer is
// ErrAborted (ADAPTER_ERROR with a retry hint in a session), never mistaken
// for a run, and running it again works.
func TestExecuteAbortedAfterAFailedCell(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 60*time.Second)
	sub := user.Subscribe()
	defer sub.Close()
	failed := make(chan error, 1)
	go func() {
		_, err := user.Execute(ctx, "import time\ntime.sleep(1)\n1/0", ExecOptions{Visible: true})
		failed <- err
	}()
	waitEvent(t, ctx, sub, "the failing cell to start", func(e Event) bool {
		return e.Kind == EventMessage && e.Ours && statusOf(e.Msg) == "busy" && e.Msg.Parent.MsgType == "execute_request"
	})
	_, err := user.Execute(ctx, "queued = 1", ExecOptions{Visible: true}) // queued behind it
	var ee *EvalError
	if ferr := <-failed; !errors.As(ferr, &ee) || ee.Name != "ZeroDivisionError" {
		t.Fatalf("the failing cell: %v", ferr)
	}
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("the cell queued behind it: %v, want ErrAborted", err)
	}
	if e := typed(err); e == nil || e.Code != errcode.AdapterError || !strings.Contains(e.Hint, "retry") {
		t.Errorf("as a session error: %+v", e)
	}
	if v, err := user.EvaluateRepr(ctx, "'queued' in globals()", CallOptions{}); err != nil || v != "False" {
		t.Errorf("the aborted cell ran: queued defined = %q, %v", v, err)
	}
	if _, err := user.Execute(ctx, "queued = 1", ExecOptions{Visible: true}); err != nil {
		t.Errorf("run again: %v", err)
	}
}
