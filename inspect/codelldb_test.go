// codelldb_test.go: the lldb probe in a CodeLLDB session (debug type
// "lldb"). CodeLLDB is in no registry the test machines reach, so its
// evaluate dispatch is replayed in Debian's lldb-19
// (testdata/native/codelldb/replay.py, from CodeLLDB 1.12.2's source):
// the probe's calls go in its "_command" context, in the request's frame
// (a handle, not lldb-dap's thread and frame index), nothing reaches its
// Debug Console, and a debugger that lost the probe gets it again.

package inspect

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/nativetest"
)

// codeLLDBReplay is a Target of a CodeLLDB session: evaluate requests go
// to replay.py, one JSON line each way.
type codeLLDBReplay struct {
	mu       sync.Mutex
	in       io.Writer
	out      *bufio.Reader
	values   *sync.Map
	contexts []string
	refused  int // failed evaluates that named an unknown command
}

func (r *codeLLDBReplay) Request(ctx context.Context, command string, args any, out any) error {
	if command != "evaluate" {
		return fmt.Errorf("the replay answers evaluate only, not %s", command)
	}
	b, _ := json.Marshal(args)
	var req struct {
		Context string `json:"context"`
	}
	_ = json.Unmarshal(b, &req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contexts = append(r.contexts, req.Context)
	if _, err := r.in.Write(append(b, '\n')); err != nil {
		return err
	}
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		return err
	}
	var resp struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return fmt.Errorf("replay answered %q: %v", line, err)
	}
	if resp.Error != "" {
		if strings.Contains(resp.Error, "is not a valid command") {
			r.refused++
		}
		return errors.New(resp.Error)
	}
	if out != nil {
		return json.Unmarshal(line, out)
	}
	return nil
}

func (r *codeLLDBReplay) Language() Language  { return Native }
func (r *codeLLDBReplay) Paused() (int, bool) { return 1, true }
func (r *codeLLDBReplay) Status() string      { return "paused" }
func (r *codeLLDBReplay) Values() *sync.Map   { return r.values }
func (r *codeLLDBReplay) DebugType() string   { return CodeLLDBDebugType }
func (r *codeLLDBReplay) evaluate(expr, evalContext string) (string, error) {
	var body struct {
		Result string `json:"result"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := r.Request(ctx, "evaluate", map[string]any{"expression": expr, "context": evalContext, "frameId": 1000}, &body)
	return body.Result, err
}

// startCodeLLDBReplay runs the C test program to its "break here" line
// under replay.py; values is the session's scratch state (kept across a
// second debugger to see the probe defined again).
func startCodeLLDBReplay(t *testing.T, values *sync.Map) (*codeLLDBReplay, string) {
	t.Helper()
	lldbBin := ""
	for _, p := range []string{"lldb-19", "lldb", "/usr/lib/llvm-19/bin/lldb"} {
		if q, err := exec.LookPath(p); err == nil {
			lldbBin = q
			break
		}
	}
	if lldbBin == "" {
		t.Skip("lldb is not installed (Debian: apt-get install lldb-19)")
	}
	bin := nativetest.Build(t, nativetest.C)
	console := filepath.Join(t.TempDir(), "console.txt")
	replay, _ := filepath.Abs("../testdata/native/codelldb/replay.py")
	cmd := exec.Command(lldbBin, "-b", "-o", "command script import "+replay)
	cmd.Env = append(os.Environ(), "DAPSCOPE_REPLAY_BIN="+bin, "DAPSCOPE_REPLAY_SOURCE="+nativetest.Source(t, nativetest.C),
		fmt.Sprintf("DAPSCOPE_REPLAY_LINE=%d", nativetest.Line(t, nativetest.C, "// break here")), "DAPSCOPE_REPLAY_CONSOLE="+console)
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	cmd.Stderr = testWriter{t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := &codeLLDBReplay{in: in, out: bufio.NewReader(outp), values: values}
	for {
		line, err := r.out.ReadString('\n')
		if err != nil {
			t.Fatalf("replay.py never stopped the program: %v", err)
		}
		if strings.HasPrefix(line, `{"fatal"`) {
			t.Fatal(line)
		}
		if strings.HasPrefix(line, `{"ready"`) {
			return r, console
		}
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func TestLLDBProbeInCodeLLDBSession(t *testing.T) {
	values := &sync.Map{}
	r, console := startCodeLLDBReplay(t, values)
	// lldb-dap's form (a backtick line in "repl") answers nothing here: in
	// CodeLLDB's default console mode it is an unknown command.
	if _, err := r.evaluate("`"+lldbProbe.slot+" e30=", "repl"); err == nil || !strings.Contains(err.Error(), "not a valid command") {
		t.Fatalf("lldb-dap's form in CodeLLDB: %v", err)
	}
	calls := func() string { v, _ := r.evaluate("getter_calls", "watch"); return v }
	before := calls()

	res, err := Inspect(t.Context(), r, 1000, "values", Options{})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(res)
	for _, want := range []string{`"size":100`, `"nan_count":2`, `"source":"probe"`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("values: %s lacks %s", js, want)
		}
	}
	res, err = Inspect(t.Context(), r, 1000, "pts", Options{})
	if err != nil || !strings.Contains(res.Summary, "3 items (point)") {
		t.Fatalf("pts: %+v, %v", res, err)
	}
	if got := calls(); got != before || before == "" {
		t.Errorf("getter_calls went %q → %q: the probe ran code in the program", before, got)
	}
	for i, c := range r.contexts {
		if c != "_command" && c != "watch" && !(i == 0 && c == "repl") {
			t.Errorf("request %d in context %q", i, c)
		}
	}
	// CodeLLDB tees a command's output into its Debug Console: the probe's
	// answers never reach it.
	if b, err := os.ReadFile(console); err != nil || len(strings.TrimSpace(string(b))) > 0 {
		t.Errorf("the Debug Console got %q (%v)", b, err)
	}

	// A new debugger (the same session's scratch state says the probe is
	// defined): the call is refused as an unknown command, the probe is
	// defined again, and the call answers.
	r2, _ := startCodeLLDBReplay(t, values)
	res, err = Inspect(t.Context(), r2, 1000, "values", Options{})
	if err != nil || res.Structure == nil || res.Structure.Size == nil || *res.Structure.Size != 100 {
		t.Fatalf("after a new debugger: %+v, %v", res, err)
	}
	if r2.refused != 1 {
		t.Errorf("the lost probe was refused %d times, want 1", r2.refused)
	}
}
