// cmd_inspect_node_test.go runs `dapscope inspect app.js:LINE` (in process)
// against real Node: the .js extension picks the Node adapter and the
// JavaScript probe (a records array comes back as a table).

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

func TestInspectCLINode(t *testing.T) {
	const prog = "testdata/node/basic.js"
	b, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// @loop") {
			line = i + 1
		}
	}
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{prog + ":" + strconv.Itoa(line), "rows", "pt", "byName", "--format", "json"}, &out)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	var results []inspect.Result
	if err := json.Unmarshal(out.Bytes(), &results); err != nil {
		t.Fatalf("output is not one JSON array: %v\n%s", err, out.String())
	}
	want := []string{inspect.TypeDataFrame, inspect.TypeObject, inspect.TypeMap}
	for i, w := range want {
		if i >= len(results) || results[i].DetectedType != w || results[i].Source != "probe" {
			t.Fatalf("result %d: want %s from the probe, got %+v", i, w, results)
		}
	}
	if s := results[0].Structure; len(s.Shape) != 2 || s.Shape[0] != 2 || s.Shape[1] != 2 {
		t.Errorf("rows: shape %v, want 2 × 2", s.Shape)
	}
	if p := results[1].Structure.Properties; len(p) != 1 || p[0] != "norm" {
		t.Errorf("pt: getters %v, want [norm] (listed, never invoked: it throws)", p)
	}
}
