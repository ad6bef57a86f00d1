// cmd_code_test.go runs `dapscope code inspect` (the command function, in
// process) on a copy of testdata/code.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/code"
)

func codeFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(dst, os.DirFS("testdata/code")); err != nil {
		t.Fatal(err)
	}
	return dst
}

func runCodeCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := runCode(t.Context(), args, &out, &errb)
	return rc, out.String(), errb.String()
}

func TestCodeInspectJSON(t *testing.T) {
	repo := codeFixture(t)
	rc, out, stderr := runCodeCLI(t, "inspect", "--repo", repo, "--symbol", "calc.core.add", "--json")
	if rc != 0 {
		t.Fatalf("rc %d, stderr %s", rc, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, out)
	}
	for _, k := range code.ResultKeys {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}
	if m["source_mode"] != "symbol" || m["path"] != "calc/core.py" || m["full_source"] != nil {
		t.Errorf("source_mode %v path %v full_source %v", m["source_mode"], m["path"], m["full_source"])
	}
	if in, _ := m["incoming_calls"].([]any); len(in) != 3 {
		t.Errorf("incoming_calls = %v, want the default 3", m["incoming_calls"])
	}
	rc, out, _ = runCodeCLI(t, "inspect", "--repo", repo, "--symbol", "calc.core.add", "--json", "--max-neighbors", "1")
	_ = json.Unmarshal([]byte(out), &m)
	if in, _ := m["incoming_calls"].([]any); rc != 0 || len(in) != 1 {
		t.Errorf("--max-neighbors 1: incoming_calls = %v", m["incoming_calls"])
	}
}

func TestCodeInspectText(t *testing.T) {
	repo := codeFixture(t)
	file, _ := os.ReadFile(filepath.Join(repo, "calc/core.py"))
	rc, out, stderr := runCodeCLI(t, "inspect", "--repo", repo, "--path", "calc/core.py", "--line", "48")
	if rc != 0 {
		t.Fatalf("rc %d, stderr %s", rc, stderr)
	}
	if !strings.HasPrefix(out, "# FILE: calc/core.py\n") {
		t.Errorf("text starts with %q", out[:min(len(out), 40)])
	}
	for _, h := range []string{"# SOURCE_MODE: symbol", "# SYMBOL: calc.core.Calculator.push", "# KIND: method", "# SUMMARY:", "# DEFINED SYMBOLS:", "# RELATIONSHIPS:", "# SNIPPET (lines 46–49):"} {
		if !strings.Contains(out, h) {
			t.Errorf("text lacks %q", h)
		}
	}
	if strings.Contains(out, string(file)) {
		t.Error("whole file printed without --full")
	}
	rc, out, _ = runCodeCLI(t, "inspect", "--repo", repo, "--path", "calc/core.py", "--full")
	if rc != 0 || !strings.Contains(out, string(file)) || !strings.Contains(out, "# SNIPPET (lines 1–") {
		t.Errorf("--full: rc %d, file present %v", rc, strings.Contains(out, string(file)))
	}
	rc, out, _ = runCodeCLI(t, "inspect", "--repo", repo, "--path", "calc/core.py", "--full", "--json")
	var r code.Result
	if err := json.Unmarshal([]byte(out), &r); rc != 0 || err != nil || r.FullSource == nil || *r.FullSource != string(file) {
		t.Errorf("--full --json: rc %d err %v", rc, err)
	}
}

func TestCodeInspectErrors(t *testing.T) {
	repo := codeFixture(t)
	rc, _, stderr := runCodeCLI(t, "inspect", "--repo", repo, "--symbol", "calc.core.ad")
	if rc != 1 || !strings.Contains(stderr, "NOT_FOUND") || !strings.Contains(stderr, "calc.core.add") {
		t.Errorf("not found: rc %d stderr %q", rc, stderr)
	}
	rc, out, _ := runCodeCLI(t, "inspect", "--repo", repo, "--path", "/etc/passwd", "--json")
	var e struct{ Error errcode.Error }
	if err := json.Unmarshal([]byte(out), &e); rc != 1 || err != nil || e.Error.Code != errcode.InvalidPath {
		t.Errorf("absolute path: rc %d out %q", rc, out)
	}
	if rc, _, _ := runCodeCLI(t, "inspect", "--repo", repo); rc != 2 {
		t.Errorf("no selector: rc %d, want 2", rc)
	}
	if rc, _, _ := runCodeCLI(t, "frobnicate"); rc != 2 {
		t.Errorf("unknown subcommand: rc %d, want 2", rc)
	}
	if _, err := os.Stat("testdata/code/.dapscope"); err == nil {
		t.Error("the source fixture got an index written into it")
	}
}
