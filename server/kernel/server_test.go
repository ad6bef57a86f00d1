//go:build linux

// server_test.go: kernels behind a real Jupyter Server (1.23, loopback,
// random token): REST listing with notebook paths, token handling (never in
// an error text), the websocket client (both encodings) with evaluation,
// execution, the no-trace checks, busy cells, restarts and shutdowns.

package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServerREST(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "work/analysis.ipynb")
	srv := js.client(t)
	ctx := testCtx(t, 60*time.Second)
	ks, err := srv.List(ctx)
	if err != nil || len(ks) != 1 {
		t.Fatalf("List = %+v, %v", ks, err)
	}
	k := ks[0]
	if k.ID != id || k.Notebook != "work/analysis.ipynb" || k.Language != "python" || k.Server != js.url || k.Found != "server" {
		t.Errorf("listed %+v", k)
	}
	if _, err := srv.Kernel(ctx, "no-such-kernel"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("unknown kernel: %v", err)
	}
	if _, err := srv.Dial(ctx, "no-such-kernel", Options{}); !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "no such kernel") {
		t.Errorf("dial of an unknown kernel: %v", err)
	}
	if _, err := srv.Kernel(ctx, "../../etc"); err == nil || !strings.Contains(err.Error(), "kernel id") {
		t.Errorf("a kernel id with a path in it: %v", err)
	}

	// A wrong token is refused, and no token appears in any error.
	bad, err := NewServer(js.url, ServerOptions{Token: "wrong-" + js.token})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bad.List(ctx)
	var se *ServerError
	if !errors.As(err, &se) || se.Status != 403 || !strings.Contains(err.Error(), "refused the token") {
		t.Errorf("wrong token: %v", err)
	}
	if _, derr := bad.Dial(ctx, id, Options{}); derr == nil || strings.Contains(derr.Error(), js.token) {
		t.Errorf("dial with a wrong token: %v", derr)
	}
	if err != nil && strings.Contains(err.Error(), js.token) {
		t.Errorf("an error shows the token: %v", err)
	}
	// A token in the URL (as Jupyter prints it) is taken and dropped from
	// the URL.
	fromURL, err := NewServer(js.url+"lab?token="+js.token, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(fromURL.URL(), js.token) || fromURL.URL() != js.url {
		t.Errorf("URL() = %s", fromURL.URL())
	}
	if _, err := fromURL.Kernels(ctx); err != nil {
		t.Errorf("token from the URL: %v", err)
	}
	// Remote servers need an explicit choice, and https.
	if _, err := NewServer("http://example.com:8888/", ServerOptions{Token: "t"}); err == nil || !strings.Contains(err.Error(), "not on this machine") {
		t.Errorf("remote server: %v", err)
	}
	if _, err := NewServer("http://example.com:8888/", ServerOptions{Token: "t", AllowRemote: true}); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("remote http server: %v", err)
	}
	if _, err := NewServer("http://example.com:8888/", ServerOptions{Token: "t", AllowHosts: []string{"example.com"}}); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("a listed host over http: %v, want the https rule", err)
	}
	if _, err := NewServer("https://example.org/", ServerOptions{Token: "t", AllowHosts: []string{"example.com"}}); err == nil || !strings.Contains(err.Error(), "--attach-hosts example.org") {
		t.Errorf("an unlisted host: %v, want a refusal naming --attach-hosts", err)
	}
	if _, err := NewServer("https://example.com/x/", ServerOptions{Token: "t", AllowHosts: []string{"example.com"}}); err != nil {
		t.Errorf("a listed host over https: %v", err)
	}
	if _, err := NewServer("https://example.com/user/me/lab", ServerOptions{Token: "t", AllowRemote: true}); err != nil {
		t.Errorf("remote https server: %v", err)
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "token")
	if err := os.WriteFile(f, []byte("  s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if tok, err := ReadToken(f); err != nil || tok != "s3cret" {
		t.Errorf("ReadToken = %q, %v", tok, err)
	}
	if err := os.Chmod(f, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadToken(f); err == nil || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("ReadToken of a readable file: %v", err)
	}
	t.Setenv("JUPYTER_TOKEN", "from-env")
	if tok, err := ReadToken(""); err != nil || tok != "from-env" {
		t.Errorf("ReadToken from the environment = %q, %v", tok, err)
	}
}

func TestServerKernelClient(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "nb.ipynb")
	srv := js.client(t)
	ctx := testCtx(t, 120*time.Second)
	c := dialServer(t, srv, id)
	if !c.tr.(*wsTransport).v1 {
		t.Error("the server did not take the v1 websocket protocol")
	}
	if c.Info().Language() != "python" {
		t.Errorf("info = %+v", c.Info())
	}
	// The user's own notebook client on the same kernel (its connection
	// file, as jupyter_client clients of a server's kernel use).
	u := startUserClient(t, filepath.Join(js.dir, ".runtime", "kernel-"+id+".json"))
	u.execute("import pandas as pd\ndf = pd.DataFrame({'a': range(7)})")
	u.foreign()
	before := takeSnapshot(t, u)
	if v, err := c.Evaluate(ctx, "'dapscope-marker-' + str(len(df))", settle); err != nil || v != "dapscope-marker-7" {
		t.Fatalf("Evaluate = %q, %v", v, err)
	}
	seen := u.foreignUntil(c.Session(), 1)
	after := takeSnapshot(t, u)
	if tr := traces(before, after, "dapscope-marker"); len(tr) > 0 {
		t.Errorf("the silent evaluation over the websocket left traces: %v", tr)
	}
	for _, m := range seen {
		if m.ParentSession == c.Session() && m.MsgType != "status" {
			t.Errorf("the user's client saw our %s", m.MsgType)
		}
	}
	res, err := c.Execute(ctx, "print('over the server')", ExecOptions{CallOptions: settle})
	if err != nil || res.Stdout != "over the server\n" {
		t.Errorf("Execute = %+v, %v", res, err)
	}
	if in, err := c.Inspect(ctx, "df", 2, 0, CallOptions{}); err != nil || !in.Found {
		t.Errorf("Inspect = %+v, %v", in, err)
	}

	// A user's cell that runs forever: busy at once, with the cell.
	other := dialServer(t, srv, id)
	sub := c.Subscribe()
	defer sub.Close()
	done := runForever(ctx, other)
	waitEvent(t, ctx, sub, "the cell to loop", looping)
	var be *BusyError
	if _, err := c.Evaluate(ctx, "'x'", CallOptions{}); !errors.As(err, &be) || be.Cell.Code != foreverCell {
		t.Errorf("Evaluate while a cell runs: %v", err)
	}
	if err := c.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	if err := c.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}

	// A restart through the server: the client goes on with the new
	// kernel (found by its new session).
	if err := srv.RestartKernel(ctx, id); err != nil {
		t.Fatal(err)
	}
	if v, err := c.EvaluateRepr(ctx, "'df' in globals()", CallOptions{Wait: 30 * time.Second}); err != nil || v != "False" {
		t.Errorf("after the restart: %q, %v", v, err)
	}
	waitEvent(t, ctx, sub, "the restart", func(e Event) bool { return e.Kind == EventLiveness && e.Restarted })

	// Shut down: the server closes the websocket; the kernel is dead.
	id2 := js.startNotebook(t, "second.ipynb")
	c2 := dialServer(t, srv, id2)
	sub2 := c2.Subscribe()
	defer sub2.Close()
	if err := js.api("DELETE", "api/kernels/"+id2, nil, nil); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, ctx, sub2, "the shutdown", func(e Event) bool { return e.Kind == EventLiveness && e.Liveness == LiveDead })
	if _, err := c2.Evaluate(ctx, "'x'", CallOptions{}); !errors.Is(err, ErrDead) {
		t.Errorf("Evaluate after the shutdown: %v", err)
	}

	// The kernel process killed with a request in flight: the server
	// restarts it and says so, the request fails with ErrRestarted, and the
	// client goes on.
	sub.Close()
	sub = c.Subscribe()
	defer sub.Close()
	inflight := make(chan error, 1)
	go func() {
		_, err := c.Evaluate(ctx, "__import__('time').sleep(60) or 'x'", CallOptions{})
		inflight <- err
	}()
	waitEvent(t, ctx, sub, "the evaluation to start", func(e Event) bool {
		return e.Kind == EventMessage && e.Ours && statusOf(e.Msg) == "busy"
	})
	for _, p := range scanKernelProcesses() {
		if strings.Contains(p.ConnectionFile, id) {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
	}
	if err := <-inflight; !errors.Is(err, ErrRestarted) {
		t.Errorf("request in flight when the kernel was killed: %v, want ErrRestarted", err)
	}
	if v, err := c.Evaluate(ctx, "'alive'", CallOptions{Wait: 30 * time.Second}); err != nil || v != "alive" {
		t.Errorf("after the server's restart: %q, %v", v, err)
	}
}

func TestServerLegacyProtocol(t *testing.T) {
	// Jupyter Server 2 reads the protocol from ZMQChannelsWebsocketConnection
	// (its ServerApp option is deprecated and no longer applied); 1.x from
	// ServerApp, and ignores the other class.
	js := startServer(t, "--ServerApp.kernel_ws_protocol=", "--ZMQChannelsWebsocketConnection.kernel_ws_protocol=")
	id := js.startNotebook(t, "legacy.ipynb")
	c := dialServer(t, js.client(t), id)
	if c.tr.(*wsTransport).v1 {
		t.Fatal("the server was told to use the legacy protocol, the client still took v1")
	}
	ctx := testCtx(t, 60*time.Second)
	if v, err := c.Evaluate(ctx, "'legacy ' + 'json'", CallOptions{}); err != nil || v != "legacy json" {
		t.Errorf("Evaluate = %q, %v", v, err)
	}
	res, err := c.Execute(ctx, "print('hi')\nx = 1 / 0", ExecOptions{})
	var ee *EvalError
	if !errors.As(err, &ee) || res.Stdout != "hi\n" {
		t.Errorf("Execute = %+v, %v", res, err)
	}
}

func TestServerKernelThatNeverAnswers(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "stopped.ipynb")
	srv := js.client(t)
	c, err := srv.Dial(testCtx(t, 60*time.Second), id, Options{Logger: testLogger(), HeartbeatInterval: 200 * time.Millisecond, HeartbeatTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testCtx(t, 120*time.Second)
	sub := c.Subscribe()
	defer sub.Close()
	pid := 0
	for _, p := range scanKernelProcesses() {
		if strings.Contains(p.ConnectionFile, id) {
			pid = p.PID
		}
	}
	if pid == 0 {
		t.Fatal("the server's kernel process was not found")
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	defer func() {
		if stopped {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
	}()
	// The server answers; the kernel does not: the call's own context is
	// far away, the kernel-level probe ends it.
	_, err = c.Evaluate(ctx, "'x'", CallOptions{})
	if !errors.Is(err, ErrNotAnswering) || !strings.Contains(err.Error(), "stopped or hung") {
		t.Fatalf("Evaluate on a stopped kernel behind the server: %v, want ErrNotAnswering", err)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	waitEvent(t, ctx, sub, "the kernel to answer again", func(e Event) bool { return e.Kind == EventLiveness && e.Liveness == LiveAlive })
	if v, err := c.Evaluate(ctx, "'back'", CallOptions{}); err != nil || v != "back" {
		t.Errorf("after SIGCONT: %q, %v", v, err)
	}
}
