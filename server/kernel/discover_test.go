//go:build linux

// discover_test.go: the runtime directory per platform, and listing real
// kernels: one in the runtime directory, one found only through its
// process (its file elsewhere, as VS Code does), a busy one, stale,
// garbage and open files, a non-Python kernel's language; Find.

package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRuntimeDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", nil, "/home/u/.local/share/jupyter/runtime"},
		{"linux", map[string]string{"XDG_DATA_HOME": "/x"}, "/x/jupyter/runtime"},
		{"linux", map[string]string{"JUPYTER_DATA_DIR": "/d"}, "/d/runtime"},
		{"darwin", map[string]string{"JUPYTER_RUNTIME_DIR": "/r"}, "/r"},
		{"darwin", nil, "/home/u/Library/Jupyter/runtime"},
		{"windows", map[string]string{"APPDATA": "/appdata"}, "/appdata/jupyter/runtime"},
	}
	for _, c := range cases {
		if got := runtimeDirFor(c.goos, env(c.env), "/home/u"); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.goos, c.env, got, c.want)
		}
	}
	t.Setenv("JUPYTER_RUNTIME_DIR", "/somewhere")
	if RuntimeDir() != "/somewhere" {
		t.Errorf("RuntimeDir ignores JUPYTER_RUNTIME_DIR: %s", RuntimeDir())
	}
}

func TestListFindsKernels(t *testing.T) {
	runtimeDir := t.TempDir()
	before := time.Now().Add(-2 * time.Second) // /proc's boot time has a 1 s grain
	// A kernel whose file is in the runtime directory, one whose file is
	// elsewhere (found through its process), and a non-Python kernel.
	inDir := startKernelOn(t, writeConnFile(t, runtimeDir, "kernel-indir.json", randomKey(t)), t.TempDir())
	elsewhere := t.TempDir()
	outside := startKernelOn(t, writeConnFile(t, elsewhere, "kernel-outside.json", randomKey(t)), elsewhere)
	echoDir := t.TempDir()
	echoFile := writeConnFile(t, echoDir, "kernel-echo.json", randomKey(t))
	echo := startKernelScript(t, echoFile, echoDir, "testdata/echokernel.py")
	writeConnFile(t, runtimeDir, "kernel-stale.json", randomKey(t))
	if err := os.WriteFile(filepath.Join(runtimeDir, "kernel-garbage.json"), []byte("{{{"), 0o600); err != nil {
		t.Fatal(err)
	}
	open := writeConnFile(t, runtimeDir, "kernel-open.json", randomKey(t))
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range []*testKernel{inDir, outside, echo} {
		k.dial(t, Options{}) // started and answering
	}
	ctx := testCtx(t, 60*time.Second)
	all, err := List(ctx, ListOptions{RuntimeDir: runtimeDir})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Kernel{}
	for _, k := range all {
		if strings.HasPrefix(k.ConnectionFile, runtimeDir) || strings.HasPrefix(k.ConnectionFile, elsewhere) || strings.HasPrefix(k.ConnectionFile, echoDir) {
			byID[k.ID] = k
		}
	}
	check := func(id, state, found string) Kernel {
		t.Helper()
		k, ok := byID[id]
		if !ok {
			t.Fatalf("kernel %s not listed: %+v", id, byID)
		}
		if k.State != state || k.Found != found {
			t.Errorf("kernel %s: state %q found %q, want %q %q (%s)", id, k.State, k.Found, state, found, k.Error)
		}
		return k
	}
	k := check("indir", StateIdle, "runtime-dir")
	if k.Language != "python" || k.PID != inDir.cmd.Process.Pid || k.Cwd != inDir.dir || k.Started.Before(before) || k.Started.After(time.Now()) {
		t.Errorf("kernel in the runtime dir: %+v", k)
	}
	k = check("outside", StateIdle, "process")
	if k.PID != outside.cmd.Process.Pid || k.Cwd != elsewhere || k.ConnectionFile != outside.file || k.Started.IsZero() {
		t.Errorf("kernel found by its process: %+v", k)
	}
	k = check("echo", StateIdle, "process")
	if k.Language != "echo" || k.Implementation != "echo" {
		t.Errorf("non-Python kernel: %+v", k)
	}
	if k := check("stale", KernelDead, "runtime-dir"); !strings.Contains(k.Error, "stale") {
		t.Errorf("stale file: %s", k.Error)
	}
	check("garbage", KernelRefused, "runtime-dir")
	if k := check("open", KernelRefused, "runtime-dir"); !strings.Contains(k.Error, "chmod 600") {
		t.Errorf("open file: %s", k.Error)
	}

	// Find by id, prefix and file; "" needs exactly one.
	list := []Kernel{byID["indir"], byID["outside"], byID["echo"]}
	if k, err := Find(list, "outs"); err != nil || k.ID != "outside" {
		t.Errorf("Find by prefix: %+v, %v", k, err)
	}
	if k, err := Find(list, outside.file); err != nil || k.PID != outside.cmd.Process.Pid {
		t.Errorf("Find by file: %+v, %v", k, err)
	}
	if _, err := Find(list, ""); err == nil || !strings.Contains(err.Error(), "3 kernels are running") {
		t.Errorf("Find of none among 3: %v", err)
	}
	if k, err := Find(list[:1], ""); err != nil || k.ID != "indir" {
		t.Errorf("Find of the only one: %+v, %v", k, err)
	}
}

func TestNonPythonKernel(t *testing.T) {
	dir := t.TempDir()
	k := startKernelScript(t, writeConnFile(t, dir, "kernel-echo.json", randomKey(t)), dir, "testdata/echokernel.py")
	c := k.dial(t, Options{})
	ctx := testCtx(t, 30*time.Second)
	if got := c.Info().Language(); got != "echo" {
		t.Errorf("language = %q, want echo", got)
	}
	_, err := c.Evaluate(ctx, "1", CallOptions{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "echo kernel") || !strings.Contains(err.Error(), "Python") {
		t.Errorf("Evaluate on an echo kernel: %v, want ErrUnsupported naming the language and what is supported", err)
	}
	res, err := c.Execute(ctx, "hello", ExecOptions{Visible: true})
	if err != nil || res.Stdout != "hello" {
		t.Errorf("Execute on the echo kernel: %+v, %v", res, err)
	}
}

func TestListBusyKernel(t *testing.T) {
	dir := t.TempDir()
	k := startKernelOn(t, writeConnFile(t, dir, "kernel-busy.json", randomKey(t)), dir)
	a := k.dial(t, Options{})
	ctx := testCtx(t, 60*time.Second)
	sub := a.Subscribe()
	defer sub.Close()
	done := runForever(ctx, a)
	waitEvent(t, ctx, sub, "the cell to loop", looping)
	all, err := List(ctx, ListOptions{RuntimeDir: dir, NoProcesses: true})
	if err != nil || len(all) != 1 {
		t.Fatalf("List = %+v, %v", all, err)
	}
	if all[0].State != StateBusy || all[0].Cell == nil || !all[0].Cell.FromHistory || strings.TrimSpace(all[0].Cell.Code) != strings.TrimSpace(foreverCell) {
		t.Errorf("a busy kernel is listed as %+v", all[0])
	}
	if err := a.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
}
