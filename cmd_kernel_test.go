// cmd_kernel_test.go runs `dapscope kernel list|inspect|vars` (the command
// functions, in process) against a real ipykernel and a real jupyter
// server: the only kernel found without --kernel, JSON and text output, a
// selection and byte budget, busy answered at once or waited for with
// --wait-ms, the server's token from a token file and never printed, and a
// cell already running on a server's kernel dated by its last_activity.

package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
)

func TestKernelCLI(t *testing.T) {
	k := kerneltest.Start(t, "cli")
	k.Run(t, "import pandas as pd\ndf = pd.DataFrame({'price': [1.5, None, 3.0, 9.0], 'city': ['a', 'b', None, 'd']})\nn = 42\ndef f(): pass")
	here := []string{"--runtime-dir", k.Dir, "--no-process-scan"} // this test's kernel only

	var out, errOut bytes.Buffer
	if rc := kernelCLI(t.Context(), append([]string{"list", "--format", "json"}, here...), &out, &errOut); rc != 0 {
		t.Fatalf("kernel list: rc %d\n%s", rc, out.String())
	}
	var ks []kernel.Kernel
	if err := json.Unmarshal(out.Bytes(), &ks); err != nil || len(ks) != 1 || ks[0].ID != "cli" || ks[0].State != "idle" {
		t.Fatalf("kernel list --format json = %s (%v)", out.String(), err)
	}
	out.Reset()
	if rc := kernelCLI(t.Context(), append([]string{"list"}, here...), &out, &errOut); rc != 0 || !strings.Contains(out.String(), "cli") || !strings.Contains(out.String(), "python") {
		t.Fatalf("kernel list: rc %d\n%s", rc, out.String())
	}

	// vars: the user's variables, the only kernel found without --kernel.
	out.Reset()
	if rc := kernelCLI(t.Context(), append([]string{"vars"}, here...), &out, &errOut); rc != 0 {
		t.Fatalf("kernel vars: rc %d\n%s", rc, out.String())
	}
	if got := out.String(); !strings.Contains(got, "df  DataFrame  DataFrame 4 × 2 · 1 null in each of price, city") || !strings.Contains(got, "n   int        42") || strings.Contains("\n"+got, "\nf ") {
		t.Errorf("kernel vars:\n%s", got)
	}
	// inspect with a selection, as JSON, by id prefix.
	out.Reset()
	rc := kernelCLI(t.Context(), append([]string{"inspect", "--kernel", "cl", "df", "--format", "json", "--sort", "-price", "--rows", "0:2",
		"--columns", "price", "--max-bytes", "4096", "--deep-memory", "nope"}, here...), &out, &errOut)
	if rc != 1 {
		t.Fatalf("kernel inspect with one missing name: rc %d, want 1\n%s", rc, out.String())
	}
	var res []struct {
		inspect.Result
		Page *inspect.Page `json:"page"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != 2 {
		t.Fatalf("kernel inspect json: %v\n%s", err, out.String())
	}
	if p := res[0].Page; res[0].DetectedType != "dataframe" || p == nil || len(p.Rows) != 2 || p.Positions[0] != 3 {
		t.Errorf("df with a selection = %+v / %+v", res[0].Result, p)
	}
	if st := res[0].Structure; st == nil || !st.MemoryDeep {
		t.Errorf("df with --deep-memory: structure %+v, want memory_deep", st)
	}
	if e := res[1].Error; e == nil || e.Code != "VARIABLE_NOT_FOUND" || !strings.Contains(strings.Join(e.AvailableVariables, ","), "df") {
		t.Errorf("nope = %+v", res[1].Error)
	}
	// tui, by connection file.
	out.Reset()
	if rc := kernelCLI(t.Context(), []string{"inspect", "--kernel", k.File, "n"}, &out, &errOut); rc != 0 || !strings.Contains(out.String(), "namespace after In[1]") {
		t.Errorf("kernel inspect tui: rc %d\n%s", rc, out.String())
	}

	// Busy: at once by default, waited for with --wait-ms.
	user := k.User(t)
	done := make(chan error, 1)
	go func() {
		_, err := user.Execute(t.Context(), "import time\ntime.sleep(2)\nn = 43", kernel.ExecOptions{Visible: true})
		done <- err
	}()
	obs, err := kernel.DialFile(t.Context(), k.File, kernel.Options{}) // sees the user's cell (a client never counts its own)
	if err != nil {
		t.Fatal(err)
	}
	defer obs.Close()
	for obs.State().Execution != kernel.StateBusy {
		time.Sleep(10 * time.Millisecond)
	}
	out.Reset()
	errOut.Reset()
	rc = kernelCLI(t.Context(), append([]string{"inspect", "n"}, here...), &out, &errOut)
	stderr := errOut.String()
	// (A command attaches afresh: the cell started before; its code and
	// number come from the kernel's input history.)
	if rc != 1 || !strings.Contains(stderr, "NOT_PAUSED: kernel is busy: cell [2] (import time …)") ||
		!strings.Contains(stderr, "already running when dapscope attached") || !strings.Contains(stderr, "its code is the kernel's latest input") {
		t.Errorf("kernel inspect while busy: rc %d, stderr %q", rc, stderr)
	}
	select {
	case <-done:
		t.Error("the busy answer came after the cell ended")
	default:
	}
	out.Reset()
	if rc := kernelCLI(t.Context(), append([]string{"inspect", "n", "--wait-ms", "30000", "--format", "json"}, here...), &out, &errOut); rc != 0 ||
		!strings.Contains(out.String(), `"value": 43`) {
		t.Errorf("kernel inspect --wait-ms: rc %d\n%s", rc, out.String())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r := k.Run(t, "print(n)"); r.Stdout != "43\n" {
		t.Errorf("the kernel after the CLI printed %q", r.Stdout)
	}
}

func TestKernelCLIOverServer(t *testing.T) {
	js := kerneltest.StartServer(t)
	id := js.StartNotebook(t, "sales.ipynb")
	user := js.User(t, id)
	if _, err := user.Execute(t.Context(), "totals = {'north': 10, 'south': 12}", kernel.ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(js.Token), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if rc := kernelCLI(t.Context(), []string{"list", "--server", js.URL, "--token-file", tokenFile}, &out, &errOut); rc != 0 ||
		!strings.Contains(out.String(), "sales.ipynb") || strings.Contains(out.String(), js.Token) {
		t.Fatalf("kernel list --server: rc %d\n%s", rc, out.String())
	}
	out.Reset()
	t.Setenv("JUPYTER_TOKEN", js.Token)
	if rc := kernelCLI(t.Context(), []string{"vars", "--kernel", js.URL + "api/kernels/" + id}, &out, &errOut); rc != 0 ||
		!strings.Contains(out.String(), "totals  dict  {'north': 10, 'south': 12}") {
		t.Errorf("kernel vars by URL: rc %d\n%s", rc, out.String())
	}
	// A wrong token: refused, and never printed.
	t.Setenv("JUPYTER_TOKEN", "wrong-token-value")
	errOut.Reset()
	rc := kernelCLI(t.Context(), []string{"vars", "--server", js.URL, "--kernel", id}, &out, &errOut)
	stderr := errOut.String()
	if rc != 1 || !strings.Contains(stderr, "refused the token") || strings.Contains(stderr, "wrong-token-value") {
		t.Errorf("a wrong token: rc %d, stderr %q", rc, stderr)
	}
	// No token at all: said so, with where one goes.
	t.Setenv("JUPYTER_TOKEN", "")
	errOut.Reset()
	rc = kernelCLI(t.Context(), []string{"list", "--server", js.URL}, &out, &errOut)
	if stderr := errOut.String(); rc != 1 || !strings.Contains(stderr, "needs a token: --token-file or JUPYTER_TOKEN") {
		t.Errorf("no token: rc %d, stderr %q", rc, stderr)
	}
	// A token in the URL: refused before anything is sent (argv is public).
	for _, args := range [][]string{{"list", "--server", js.URL + "?token=" + js.Token},
		{"vars", "--kernel", js.URL + "api/kernels/" + id + "?token=" + js.Token}} {
		errOut.Reset()
		rc = kernelCLI(t.Context(), args, &out, &errOut)
		if stderr := errOut.String(); rc != 2 || !strings.Contains(stderr, "--token-file or $JUPYTER_TOKEN") || strings.Contains(stderr, js.Token) {
			t.Errorf("%s with a token in the URL: rc %d, stderr %q", args[0], rc, stderr)
		}
	}
	// A fresh call while the user's cell runs: dated by the server's
	// last_activity, not by the call's attach.
	t.Setenv("JUPYTER_TOKEN", js.Token)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = user.Execute(t.Context(), "import time\ntime.sleep(60)", kernel.ExecOptions{Visible: true})
	}()
	defer func() { _ = user.Interrupt(t.Context()); <-done }()
	srv, err := kernel.NewServer(js.URL, kernel.ServerOptions{Token: js.Token})
	if err != nil {
		t.Fatal(err)
	}
	for {
		k, err := srv.Kernel(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if k.ExecutionState == kernel.StateBusy {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	errOut.Reset()
	rc = kernelCLI(t.Context(), []string{"vars", "--server", js.URL, "--kernel", id}, &out, &errOut)
	if stderr := errOut.String(); rc != 1 || !strings.Contains(stderr, "kernel is busy: cell [2] (import time …)") ||
		!strings.Contains(stderr, ", the Jupyter Server's last_activity for the kernel") {
		t.Errorf("kernel vars --server while a cell runs: rc %d, stderr %q", rc, stderr)
	}
}

// TestKernelCLIServerRefused: no server at the URL is NOT_FOUND naming
// the URL (it was INTERNAL).
func TestKernelCLIServerRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String() + "/"
	_ = l.Close() // nothing listens there now
	t.Setenv("JUPYTER_TOKEN", "secret-token-value")
	_, err = kernel.Kernels(t.Context(), kernel.ServerRef{URL: u}, kernel.ListOptions{})
	e := errcode.As(err)
	if e == nil || e.Code != errcode.NotFound || !strings.Contains(e.Message, l.Addr().String()) || strings.Contains(err.Error(), "secret-token-value") {
		t.Errorf("a refused connection: %#v", err)
	}
}

// TestKernelHelpListsKernelFlags: kernel inspect -h listed debugger-only
// flags (--python, --dlv, --node, --nodelay, --fast-wake, --smart-values).
func TestKernelHelpListsKernelFlags(t *testing.T) {
	for _, sub := range []string{"list", "inspect", "vars"} {
		var out, errOut bytes.Buffer
		kernelCLI(t.Context(), []string{sub, "-h"}, &out, &errOut)
		help := errOut.String()
		for _, f := range []string{"-python", "-dlv", "-node ", "-nodelay", "-fast-wake", "-smart-values"} {
			if strings.Contains(help, f) {
				t.Errorf("kernel %s -h lists %s", sub, f)
			}
		}
		if !strings.Contains(help, "-token-file") || !strings.Contains(help, "-log-level") {
			t.Errorf("kernel %s -h lacks its own flags:\n%s", sub, help)
		}
	}
}
