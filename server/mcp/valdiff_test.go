// valdiff_test.go: debug_diff names what changed inside values. Table tests
// of the value walk on inspect-shaped JSON, then the reproduction on
// real debugpy (an object's dict entry and counter changing between two
// stops in one method: `self: unchanged` before) and on real Delve (a
// struct's map and field), and the cells of a small DataFrame and array.

package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// lineWith is the 1-based line of path that contains marker.
func lineWith(t testing.TB, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), path))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no %q in %s", marker, path)
	return 0
}

// launchToRaw launches program with a breakpoint on the line of file that
// holds marker (extra: more launch arguments) and returns the stop report
// and the raw result.
func launchToRaw(t *testing.T, a *agent, program, file, marker string, extra map[string]any) (StopReport, *mcpgo.CallToolResult) {
	t.Helper()
	args := map[string]any{"program": program, "breakpoints": []map[string]any{{"file": file, "line": lineWith(t, file, marker)}}}
	for k, v := range extra {
		args[k] = v
	}
	var stop StopReport
	r := a.call("debug_launch", args, &stop)
	return stop, r
}

// launchTo is launchToRaw's stop report.
func launchTo(t *testing.T, a *agent, program, file, marker string, extra map[string]any) StopReport {
	t.Helper()
	stop, _ := launchToRaw(t, a, program, file, marker, extra)
	return stop
}

func changeLines(vs []ValueChange) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Path+": "+v.Before+" → "+v.After)
	}
	return out
}

func TestValueDiffTable(t *testing.T) {
	obj := func(attrs string) string {
		return `{"type":"T","detected_type":"object","structure":{"attributes":[` + attrs + `]}}`
	}
	items := func(t, items string) string {
		return `{"type":"` + t + `","detected_type":"` + t + `","preview":{"items":[` + items + `]}}`
	}
	frame := func(rows string, omitted int) string {
		return `{"type":"pandas.DataFrame","detected_type":"dataframe","structure":{"column_count":2,"shape":[2,2]},"preview":{"columns":["k","v"],"head":[` + rows + `],"omitted_rows":` + itoa(omitted) + `}}`
	}
	for _, tc := range []struct {
		name, a, b string
		goLang     bool
		nested     map[string][2]string
		want       []string
		notes      int
	}{
		{name: "attribute changed", a: obj(`{"name":"n","repr":"19","type":"int"}`), b: obj(`{"name":"n","repr":"43","type":"int"}`),
			want: []string{"x.n: 19 → 43"}},
		{name: "attribute added and removed", a: obj(`{"name":"old","repr":"1","type":"int"}`), b: obj(`{"name":"new","repr":"'s'","type":"str"}`),
			want: []string{"x.new:  → 's'", "x.old: 1 → "}},
		{name: "container attribute through its nested inspection",
			a: obj(`{"name":"d","repr":"{'north': 1.0}","type":"dict"}`), b: obj(`{"name":"d","repr":"{'north': 2.5}","type":"dict"}`),
			nested: map[string][2]string{"x.d": {items("dict", `{"key":"north","value":1.0}`), items("dict", `{"key":"north","value":2.5}`)}},
			want:   []string{"x.d['north']: 1 → 2.5"}},
		{name: "dict keys", a: items("dict", `{"key":"a","value":1},{"key":"b","value":[1,2]}`), b: items("dict", `{"key":"b","value":[1,3]},{"key":"c","value":"it's"}`),
			want: []string{"x['b'][1]: 2 → 3", `x['c']:  → "it's"`, "x['a']: 1 → "}},
		{name: "go map keys", goLang: true, a: items("map[string]int", `{"key":"a","value":1}`), b: items("map[string]int", `{"key":"a","value":2}`),
			want: []string{`x["a"]: 1 → 2`}},
		{name: "list items", a: items("list", `{"index":0,"value":"a"}`), b: items("list", `{"index":0,"value":"a"},{"index":1,"value":"big"}`),
			want: []string{"x[1]:  → 'big'"}},
		{name: "set members", a: items("set", `{"value":1},{"value":2}`), b: items("set", `{"value":2},{"value":3}`),
			want: []string{"x ∋:  → 3", "x ∋: 1 → "}},
		{name: "frame cells", a: frame(`{"index":0,"values":["a",1.5]},{"index":1,"values":["b",2]}`, 0),
			b:    frame(`{"index":0,"values":["a",1.5]},{"index":1,"values":["b",9.75]}`, 0),
			want: []string{"x.loc[1, 'v']: 2 → 9.75"}},
		{name: "frame too long to hold", a: frame(`{"index":0,"values":["a",1]}`, 500), b: frame(`{"index":0,"values":["a",2]}`, 500), notes: 1},
		{name: "type changed: left to the shape diff", a: items("list", `{"index":0,"value":1}`), b: items("tuple", `{"index":0,"value":2}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &valueDiff{goLang: tc.goLang, nested: func(p string) (json.RawMessage, json.RawMessage) {
				n, ok := tc.nested[p]
				if !ok {
					return nil, nil
				}
				return json.RawMessage(n[0]), json.RawMessage(n[1])
			}}
			d.diffValues("x", json.RawMessage(tc.a), json.RawMessage(tc.b))
			if got := changeLines(d.changes); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if len(d.notes) != tc.notes {
				t.Errorf("notes = %q, want %d", d.notes, tc.notes)
			}
		})
	}
	// Bounded: the 41st change is counted, not listed.
	var a, b []string
	for i := 0; i < 60; i++ {
		a = append(a, `{"index":`+itoa(i)+`,"value":0}`)
		b = append(b, `{"index":`+itoa(i)+`,"value":1}`)
	}
	d := &valueDiff{}
	d.diffValues("x", json.RawMessage(items("list", strings.Join(a, ","))), json.RawMessage(items("list", strings.Join(b, ","))))
	if len(d.changes) != maxValueChanges || d.omitted != 60-maxValueChanges {
		t.Fatalf("bounds: %d listed, %d omitted", len(d.changes), d.omitted)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestDiffValuesDebugpy(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	stop := launchTo(t, a, prog, prog, "# STOP", nil)
	if stop.Status != "paused" || stop.Location.Function != "add" {
		t.Fatalf("first stop = %+v", stop)
	}
	var st StackResult
	a.call("debug_stack", nil, &st)
	var s1, m1, m2 SnapshotResult
	a.call("debug_snapshot", map[string]any{"inspect": []string{"self", "self.by_region"}}, &s1)
	a.call("debug_snapshot", map[string]any{"frame_id": st.Frames[1].ID, "inspect": []string{"prices", "grid"}}, &m1)
	a.call("debug_continue", nil, &stop)
	if stop.Status != "paused" || stop.Location.Function != "add" {
		t.Fatalf("second stop = %+v", stop)
	}
	a.call("debug_stack", nil, &st)
	a.call("debug_snapshot", map[string]any{"frame_id": st.Frames[1].ID, "inspect": []string{"prices", "grid"}}, &m2)

	// → debug_diff {from: s1}: the object and its dict, key by key.
	var d DiffResult
	r := a.call("debug_diff", map[string]any{"from": s1.Snapshot.ID}, &d)
	got := map[string][]string{}
	for _, in := range d.Inspections {
		got[in.Expression] = changeLines(in.Values)
	}
	want := map[string][]string{
		"self":           {"self.by_region['north']: 293.17 → 497.17", "self.by_region['west']:  → 1", "self.rows_seen: 19 → 44", "self.tags[1]:  → 'big'"},
		"self.by_region": {"self.by_region['north']: 293.17 → 497.17", "self.by_region['west']:  → 1"},
	}
	for e, w := range want {
		if strings.Join(got[e], "\n") != strings.Join(w, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", e, strings.Join(got[e], "\n"), strings.Join(w, "\n"))
		}
	}
	text := textOf(r)
	t.Logf("debug_diff text:\n%s", text)
	for _, line := range []string{"  self.rows_seen: 19 → 44", "  + self.by_region['west'] = 1"} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("text lacks %q:\n%s", line, text)
		}
	}

	// → debug_diff {from: m1, to: m2}: the cells of a small frame and array.
	a.call("debug_diff", map[string]any{"from": m1.Snapshot.ID, "to": m2.Snapshot.ID}, &d)
	got = map[string][]string{}
	for _, in := range d.Inspections {
		got[in.Expression] = changeLines(in.Values)
	}
	if g := strings.Join(got["prices"], "|"); g != "prices.loc[1, 'price']: 2 → 9.75" {
		t.Errorf("prices cells: %q", g)
	}
	if g := strings.Join(got["grid"], "|"); g != "grid[1, 2]: 5 → -1" {
		t.Errorf("grid cells: %q", g)
	}
}

func TestDiffValuesDelve(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const file = "testdata/go/valdiff/main.go"
	stop := launchTo(t, a, "testdata/go/valdiff", file, "// STOP", map[string]any{"adapter": "dlv", "timeout": 120})
	if stop.Status != "paused" {
		t.Fatalf("first stop = %+v", stop)
	}
	var s1 SnapshotResult
	a.call("debug_snapshot", map[string]any{"inspect": []string{"t"}}, &s1)
	// Issue 13.8: Go snapshots and diffs name where they were taken.
	loc := "testdata/go/valdiff/main.go:" + itoa(lineWith(t, file, "// STOP")) + " (main.(*Totals).Add)"
	if s1.Snapshot.Location != loc {
		t.Errorf("snapshot location = %q, want %q", s1.Snapshot.Location, loc)
	}
	a.call("debug_continue", nil, &stop)
	var d DiffResult
	r := a.call("debug_diff", map[string]any{"from": s1.Snapshot.ID}, &d)
	if len(d.Inspections) != 1 || d.FromLocation != loc || d.ToLocation != loc || !strings.HasPrefix(textOf(r), "diff s1 ("+loc+") → now ("+loc+")") {
		t.Fatalf("diff = %+v\n%s", d, textOf(r))
	}
	got := strings.Join(changeLines(d.Inspections[0].Values), "\n")
	want := "t.ByRegion[\"north\"]: 10 → 13\nt.RowsSeen: 4 → 6"
	if got != want {
		t.Errorf("struct diff:\n%s\nwant:\n%s", got, want)
	}
}
