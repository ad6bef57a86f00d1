package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/kernel"
)

// TestKernelAttachTextNoEmptyParts: a server kernel without a notebook
// printed "(python, )".
func TestKernelAttachTextNoEmptyParts(t *testing.T) {
	for _, k := range []kernel.Kernel{
		{ID: "k1", Language: "python", Server: "http://127.0.0.1:8888/"},
		{ID: "k2", Language: "python"},
		{ID: "k3"},
	} {
		r := &KernelAttachResult{Kernel: k, StopReport: &StopReport{}}
		head, _, _ := strings.Cut(r.text(), "\n")
		if strings.Contains(head, ", )") || strings.Contains(head, "()") || strings.Contains(head, "( ") {
			t.Errorf("%+v: %q", k, head)
		}
	}
}

// TestEmptyVariablesText: an empty namespace gave an empty text.
func TestEmptyVariablesText(t *testing.T) {
	if got := (&VariablesResult{}).text(); strings.TrimSpace(got) == "" {
		t.Errorf("empty variables text %q", got)
	}
}
