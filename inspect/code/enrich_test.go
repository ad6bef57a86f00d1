// enrich_test.go: enrichment from docstrings and bodies, and provenance.

package code

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestEnrichmentMirrorsDocstrings(t *testing.T) {
	ix, _ := openFixture(t)
	add := inspect(t, ix, Query{Symbol: "calc.core.add"}).Enrichment
	if add.Summary != "Add two non-negative integers." {
		t.Errorf("summary = %q", add.Summary)
	}
	if !hasItem(add.Inputs, "a: int — the first operand.") || !hasItem(add.Inputs, "b: int = 0 — the second operand") {
		t.Errorf("inputs = %q", add.Inputs)
	}
	if !hasItem(add.Outputs, "The sum of a and b.") {
		t.Errorf("outputs = %q", add.Outputs)
	}
	if !hasItem(add.Pitfalls, "raises ValueError: if either operand is negative.") {
		t.Errorf("pitfalls = %q", add.Pitfalls)
	}
	if add.EvidenceCount < 3 { // docstring, annotations, raise/return statements
		t.Errorf("evidence_count = %d", add.EvidenceCount)
	}
	// NumPy-style docstring.
	load := inspect(t, ix, Query{Symbol: "calc.io.load"}).Enrichment
	if !hasItem(load.Inputs, "path — (str) File to read.") || !hasItem(load.Outputs, "The sum of all lines.") {
		t.Errorf("numpy docstring not mirrored: inputs %q outputs %q", load.Inputs, load.Outputs)
	}
	if !hasItem(load.SideEffects, "opens files (open)") {
		t.Errorf("load side effects = %q", load.SideEffects)
	}
	save := inspect(t, ix, Query{Symbol: "calc.core.Calculator.save"}).Enrichment
	for _, want := range []string{"opens files (open)", "writes to stdout (print)", "json.dump", "writes global LAST"} {
		if !hasItem(save.SideEffects, want) {
			t.Errorf("save side effects %q miss %q", save.SideEffects, want)
		}
	}
	check := inspect(t, ix, Query{Symbol: "calc.core.Calculator._check"}).Enrichment
	if !hasItem(check.Pitfalls, "raises TypeError") || check.Summary != "" {
		t.Errorf("_check enrichment = %+v", check)
	}
	total := inspect(t, ix, Query{Symbol: "mathx.Acc.Total"}).Enrichment
	if !hasItem(total.Pitfalls, "may panic") || !hasItem(total.Pitfalls, "error") || !hasItem(total.Outputs, "(int, error)") {
		t.Errorf("Go enrichment = %+v", total)
	}
	addGo := inspect(t, ix, Query{Symbol: "mathx.Acc.Add"}).Enrichment
	if !hasItem(addGo.SideEffects, "writes package variable Calls") || addGo.Summary != "Add adds x to the running total." {
		t.Errorf("Go Add enrichment = %+v", addGo)
	}
	// Keys are always present, empty lists rather than null.
	b, _ := json.Marshal(inspect(t, ix, Query{Symbol: "notes.orphan.lonely"}).Enrichment)
	for _, k := range []string{`"inputs":[`, `"outputs":[`, `"side_effects":[]`, `"pitfalls":[]`, `"evidence_count":`, `"summary":`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("enrichment JSON %s lacks %s", b, k)
		}
	}
}

func TestProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed") // provenance without git is covered below
	}
	dir := copyFixture(t)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-01-02T10:00:00Z", "GIT_COMMITTER_DATE=2024-01-02T10:00:00Z",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "calc", "tests", "docs", "mathx", "README.md")
	git("commit", "-q", "-m", "fixture")
	ix, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Symbol: "calc.core.add"})
	p := r.Provenance
	if p.Kind != "code" || p.LastCommit == nil || len(*p.LastCommit) < 7 || p.LastCommitDate == nil || *p.LastCommitDate != "2024-01-02" || p.IndexedAt == nil {
		t.Errorf("provenance = kind %s commit %v date %v indexed %v", p.Kind, deref(p.LastCommit), deref(p.LastCommitDate), deref(p.IndexedAt))
	}
	if p := inspect(t, ix, Query{Symbol: "test_core.test_add"}).Provenance; p.Kind != "test" || p.LastCommit == nil {
		t.Errorf("test provenance = %+v", p)
	}
	if p := inspect(t, ix, Query{Path: "docs/usage.md"}).Provenance; p.Kind != "docs" {
		t.Errorf("docs provenance kind = %s", p.Kind)
	}
	// Untracked file: nulls, no error.
	if p := inspect(t, ix, Query{Path: "config.toml"}).Provenance; p.LastCommit != nil || p.LastCommitDate != nil || p.Kind != "config" {
		t.Errorf("untracked provenance = %+v", p)
	}
	// No repository at all: nulls, no error.
	ix2, _ := openFixture(t)
	ix2.opts.NoGit = false
	if p := inspect(t, ix2, Query{Symbol: "calc.core.add"}).Provenance; p.LastCommit != nil || p.LastCommitDate != nil {
		t.Errorf("provenance without git = %+v", p)
	}
}
