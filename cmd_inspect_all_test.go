// cmd_inspect_all_test.go: `dapscope inspect … --all-processes` on a
// multiprocessing run: one table, a row per process of the tree.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/mcp"
)

func TestInspectCLIAllProcesses(t *testing.T) {
	b, err := os.ReadFile("testdata/python/mp_tree.py")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "# WORKER BREAKPOINT") {
			line = i + 1
		}
	}
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{"testdata/python/mp_tree.py:" + strconv.Itoa(line), "data", "--all-processes", "--processes", "2",
		"--format", "json", "--", "pool-fork"}, &out)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	var tables []mcp.ProcessTable
	if err := json.Unmarshal(out.Bytes(), &tables); err != nil || len(tables) != 1 {
		t.Fatalf("output: %v\n%s", err, out.String())
	}
	paused, others := 0, 0
	for _, r := range tables[0].Rows {
		switch {
		case r.Status == "paused" && strings.HasPrefix(r.Summary, "dict 3 keys"):
			paused++
		case r.Error != "":
			others++
		default:
			t.Errorf("row %+v", r)
		}
	}
	if paused != 2 || others < 1 {
		t.Fatalf("rows %+v", tables[0].Rows)
	}
}
