// echo_test.go: no error echoes unbounded input. Unit cases for the
// bounding, and every tool called with a generated oversized argument
// (each string property and an unknown field name of 1 MB) answering with
// a response far under the 100 KB cap.

package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestBoundText(t *testing.T) {
	long := strings.Repeat("a", 10<<20)
	got := boundText(`program "`+long+`" does not exist`, maxErrorMessage)
	if want := `program "` + strings.Repeat("a", 199) + `…(10,485,762 bytes)`; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, " does not exist") {
		t.Fatalf("got %.300q", got)
	}
	// Multi-byte text is cut on rune boundaries.
	got = boundText(strings.Repeat("é", 1000), maxErrorMessage)
	if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 260 {
		t.Fatalf("got %d runes, valid %v", utf8.RuneCountInString(got), utf8.ValidString(got))
	}
	// Many short words: the whole message is bounded.
	got = boundText(strings.Repeat("word ", 1<<20), maxErrorMessage)
	if len(got) > maxErrorMessage+64 || !strings.Contains(got, "bytes in all") {
		t.Fatalf("len %d", len(got))
	}
	if s := "short message"; boundText(s, maxErrorMessage) != s {
		t.Fatal("short messages pass unchanged")
	}
}

func TestEveryToolBoundsOversizedArguments(t *testing.T) {
	t.Parallel()
	a := stdioAgent(t)
	tools, err := a.c.ListTools(testCtx(t), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1<<20)
	for _, tool := range tools.Tools {
		var schema struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		_ = json.Unmarshal(b, &schema)
		cases := map[string]map[string]any{"unknown field": {strings.Repeat("f", 1<<20): 1}}
		for name, p := range schema.Properties {
			if p.Type == "string" {
				cases[name] = map[string]any{name: big}
			}
		}
		for what, args := range cases {
			r, err := a.callCtx(testCtx(t), tool.Name, args, false)
			if err != nil {
				t.Fatalf("%s %s: protocol error %v", tool.Name, what, err)
			}
			out, _ := json.Marshal(r)
			if len(out) > 100<<10 {
				t.Errorf("%s with an oversized %s: %d-byte response (cap 100 KB)", tool.Name, what, len(out))
			}
		}
	}
}
