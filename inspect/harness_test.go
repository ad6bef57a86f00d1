// This file holds pyHarness, a Target backed by a plain /usr/bin/python3
// process that evaluates expressions the way pydevd does (see
// testdata/harness.py), so the probe and the Go engine are tested end to end
// without a debugger; and the golden-file normalization shared with the
// real debugpy tests (internal/golden compares and rewrites).

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
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/internal/golden"
	"github.com/dapscope/dapscope/internal/testpython"
)

// python is the interpreter the probe's tables run in without a debugger:
// the leg's (testpython: $DAPSCOPE_PYTHON, make test-probe PYTHON=…), else
// Debian's python3, whose library versions the golden files hold.
var python = testpython.Path()

const debianPython = testpython.Debian

// goldenPython reports whether the tables run in Debian's python3: golden
// files (exact bytes) are checked only there; in another interpreter
// (other pandas, numpy, torch) the tables assert their facts instead.
func goldenPython() bool { return python == debianPython }

type pyHarness struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	mu     sync.Mutex
	values sync.Map
	evals  int
	paused bool
	last   []string
}

func startHarness(t testing.TB, fixture string) *pyHarness {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s is required: %v", python, err)
	}
	return startHarnessCmd(t, exec.Command(python, "testdata/harness.py", fixture))
}

// startHarnessCmd runs a harness command (a Python answering one
// evaluation per line) as a Target.
func startHarnessCmd(t testing.TB, cmd *exec.Cmd) *pyHarness {
	t.Helper()
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
		t.Fatal(err)
	}
	h := &pyHarness{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), paused: true}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return h
}

func (h *pyHarness) Request(ctx context.Context, command string, args any, out any) error {
	if command == "stackTrace" {
		return json.Unmarshal([]byte(`{"stackFrames":[{"id":7,"name":"build","line":1}],"totalFrames":1}`), out)
	}
	return fmt.Errorf("harness: unsupported command %s", command)
}

// EvaluateProbe makes the harness an inspect.Transport: the expression is
// evaluated in the fixture's namespace as pydevd would (rawString).
func (h *pyHarness) EvaluateProbe(ctx context.Context, req EvalRequest) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !req.RawString {
		return "", errors.New("harness: evaluate without rawString")
	}
	line, _ := json.Marshal(req.Expression)
	h.evals++
	h.last = append(h.last, req.Expression)
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

func (h *pyHarness) Language() Language { return Python }
func (h *pyHarness) Paused() (int, bool) {
	if h.paused {
		return 1, true
	}
	return 0, false
}
func (h *pyHarness) Status() string {
	if h.paused {
		return "paused"
	}
	return "running"
}
func (h *pyHarness) Values() *sync.Map { return &h.values }

// ---------------------------------------------------------------- goldens

var (
	addrRe = regexp.MustCompile(`0x[0-9a-fA-F]{6,}`)
)

// normalize drops volatile fields (timings, addresses) and returns indented
// JSON for a golden file.
func normalize(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	dec := json.NewDecoder(bytesReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	scrub(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out = addrRe.ReplaceAll(out, []byte("0xADDR"))
	out = []byte(strings.ReplaceAll(string(out), checkoutRoot, "$ROOT")) // paths in stacks
	return append(out, '\n')
}

// checkoutRoot is this checkout's absolute path (goldens say $ROOT).
var checkoutRoot = func() string {
	p, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	return p
}()

func scrub(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "elapsed_ms")
		delete(v, "probe_ms")
		if _, ok := v["variables_reference"]; ok {
			v["variables_reference"] = "REF" // adapter-assigned handle
		}
		for _, x := range v {
			scrub(x)
		}
	case []any:
		for _, x := range v {
			scrub(x)
		}
	}
}

// checkGolden compares a normalized result with testdata/golden/<name>.json
// (in another Python than Debian's: its stable facts, facts_test.go).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	if !goldenPython() {
		checkFacts(t, name, got)
		return
	}
	golden.Check(t, filepath.Join("testdata", "golden", name+".json"), got)
}
