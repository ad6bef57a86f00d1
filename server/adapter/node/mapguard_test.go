// mapguard_test.go: source maps from an untrusted repository (issue #37):
// one row per attack, each read as the adapter reads a script's map. None
// may crash the process, hang, read a file outside the workspace, or
// echo a file's bytes; a map that is refused gives its reason, one that
// is used maps its hostile places nowhere.

package node

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genJS is a generated file of 8 lines naming its map.
const genJS = "a();\nb();\nc();\nd();\ne();\nf();\ng();\nh();\n"

// vlq spells n as a source map base64 VLQ.
func vlq(n int) string {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	v := n << 1
	if n < 0 {
		v = (-n << 1) | 1
	}
	var b strings.Builder
	for {
		d := v & 31
		v >>= 5
		if v > 0 {
			d |= 32
		}
		b.WriteByte(digits[d])
		if v == 0 {
			return b.String()
		}
	}
}

// hostileMap is one attack: files set up in the workspace ws (and in out,
// a directory beside it), the map URL the script names, and what must
// come of it.
type hostileMap struct {
	name   string
	setup  func(t *testing.T, ws, out string) (mapURL string)
	root   func(ws string) string // the workspace the rule checks ("": ws)
	err    string                 // the map is refused with this
	note   string                 // the map is used, with this note
	mapped map[int]string         // generated line → "" (unmapped) or the source's base name
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// linked writes app.js.map with text.
func linked(text string) func(t *testing.T, ws, out string) string {
	return func(t *testing.T, ws, _ string) string {
		writeFile(t, filepath.Join(ws, "app.js.map"), text)
		return "app.js.map"
	}
}

// secret is the content of files outside the workspace.
const secret = "root:x:0:0:SECRET-TOKEN"

var hostileMaps = []hostileMap{
	{name: "a usable map (control)", setup: linked(`{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AACA"}`),
		mapped: map[int]string{1: "a.ts", 2: "a.ts", 3: ""}},
	// #37.1: go-sourcemap's Consumer.source indexes sources with it.
	{name: "a source index past the end of sources", setup: linked(`{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AACA;AEAA;AACA"}`),
		mapped: map[int]string{1: "a.ts", 2: "a.ts", 3: "", 4: ""}},
	// #37.2: sourcemap.Parse dereferences the section's nil map.
	{name: "an index map with a url section", setup: linked(`{"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.js.map"}]}`),
		err: "malformed"},
	// #37.14: the map's size is what was read, and it is bounded.
	{name: "a linked map over 8 MiB", setup: linked(`{"version":3,"sources":["a.ts"],"mappings":"AAAA","x":"` + strings.Repeat("x", 8<<20) + `"}`),
		err: "larger than 8 MiB"},
	{name: "an inline map over 8 MiB", setup: func(*testing.T, string, string) string {
		return "data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(`{"version":3,"x":"`+strings.Repeat("x", 8<<20)+`"}`))
	}, err: "inline source map is larger than 8 MiB"},
	{name: "a negative original line and column", setup: linked(`{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AA` + vlq(-831283983) + `A;AA` + vlq(831283983) + `A;AAA` + vlq(-5) + `"}`),
		mapped: map[int]string{1: "a.ts", 2: "", 3: "a.ts", 4: ""}},
	// #37.8: every path a map names is in the workspace.
	{name: "/etc/passwd as a source", setup: linked(`{"version":3,"sources":["a.ts","/etc/passwd"],"sourcesContent":["x","y"],"names":[],"mappings":"AAAA;ACAA"}`),
		note: "a source outside the workspace", mapped: map[int]string{1: "a.ts", 2: ""}},
	{name: "../ out of the workspace as a source", setup: func(t *testing.T, ws, out string) string {
		writeFile(t, filepath.Join(out, "secret.txt"), secret)
		// sourcesContent differs from the secret: the stale check must not
		// read it (it would be an oracle: "changed").
		rel, _ := filepath.Rel(ws, filepath.Join(out, "secret.txt"))
		return linked(`{"version":3,"sources":["`+filepath.ToSlash(rel)+`"],"sourcesContent":["guess"],"names":[],"mappings":"AAAA"}`)(t, ws, out)
	}, note: "a source outside the workspace", mapped: map[int]string{1: ""}},
	{name: "a file:// sourceRoot outside the workspace", setup: func(t *testing.T, ws, out string) string {
		writeFile(t, filepath.Join(out, "secret.txt"), secret)
		return linked(`{"version":3,"sourceRoot":"file://`+filepath.ToSlash(out)+`","sources":["secret.txt"],"names":[],"mappings":"AAAA"}`)(t, ws, out)
	}, note: "a source outside the workspace", mapped: map[int]string{1: ""}},
	{name: "sourceMappingURL=/etc/passwd", setup: func(*testing.T, string, string) string { return "/etc/passwd" },
		err: "outside the workspace"},
	{name: "sourceMappingURL outside by ../", setup: func(t *testing.T, ws, out string) string {
		writeFile(t, filepath.Join(out, "secret.txt"), secret)
		rel, _ := filepath.Rel(ws, filepath.Join(out, "secret.txt"))
		return rel
	}, err: "outside the workspace"},
	{name: "a map that is not JSON", setup: linked(secret), err: "is not JSON"},
	{name: "an inline map that is not JSON", setup: func(*testing.T, string, string) string {
		return "data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(secret))
	}, err: "is not JSON"},
}

func TestHostileSourceMaps(t *testing.T) {
	for _, tc := range hostileMaps {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			ws, out := filepath.Join(top, "ws"), filepath.Join(top, "out")
			gen := filepath.Join(ws, "app.js")
			writeFile(t, gen, genJS)
			mapURL := tc.setup(t, ws, out)
			root := ws
			if tc.root != nil {
				root = tc.root(ws)
			}
			m, note, err := readSourceMap(gen, mapURL, root)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "root") || strings.Contains(err.Error(), "'r'") {
					t.Fatalf("the error echoes a file's bytes: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(note, tc.note) || (tc.note == "") != (note == "") {
				t.Errorf("note = %q, want %q", note, tc.note)
			}
			for line, want := range tc.mapped {
				p, l, c, ok := m.lookup(line, 0)
				switch {
				case want == "" && ok:
					t.Errorf("line %d maps to %s:%d:%d, want nowhere", line, p, l, c)
				case want != "" && (!ok || filepath.Base(p) != want || l < 1 || c < 0):
					t.Errorf("line %d maps to %q:%d:%d (%v), want %s", line, p, l, c, ok, want)
				}
			}
			// Every place, both ways: nothing panics, nothing is outside.
			for line := 0; line <= 10; line++ {
				for col := -1; col <= 6; col++ {
					if p, l, _, ok := m.lookup(line, col); ok && (!inside(root, p) || l < 1) {
						t.Errorf("%d:%d maps to %s:%d", line, col, p, l)
					}
				}
			}
			for p := range m.index() {
				if !inside(root, p) {
					t.Errorf("the reverse index has %s", p)
				}
			}
			for p, text := range m.content {
				if strings.Contains(text, "SECRET") || !inside(root, p) {
					t.Errorf("content of %s: %q", p, text)
				}
			}
		})
	}
}

// FuzzSourceMap reads any map as a script's (linked) map, and looks up
// every place of it both ways: nothing may panic or hang. The seeds are
// the attacks above and go-sourcemap's own crashers; `go test` runs them.
func FuzzSourceMap(f *testing.F) {
	for _, seed := range []string{
		`{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AACA;AEAA;AACA"}`,
		`{"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.js.map"}]}`,
		`{"version":3,"sections":[{"offset":{"line":1,"column":0},"map":{"version":3,"sources":["a.ts"],"mappings":"AAAA"}}]}`,
		`{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AA` + vlq(-831283983) + `A;AAAA;AAA` + vlq(-5) + `"}`,
		`{"version":3,"sources":["a.ts"],"names":["x"],"mappings":"AAAAC;AAAAC"}`,
		`{"version":3,"sources":["/etc/passwd","../../x"],"sourceRoot":"file:///etc","mappings":"AAAA,CCAA"}`,
		`{"version":3,"sources":[],"mappings":"////;gggg"}`,
		`{"version":3,"file":"app.js","sources":["a.ts"],"sourcesContent":[null],"mappings":";;;;;;;;;;"}`,
		secret,
	} {
		f.Add([]byte(seed))
	}
	ws := f.TempDir()
	gen := filepath.Join(ws, "app.js")
	if err := os.WriteFile(gen, []byte(genJS), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<16 {
			return
		}
		// The inline path reads no file: the map is its bytes.
		url := "data:application/json;base64," + base64.StdEncoding.EncodeToString(raw)
		m, _, err := readSourceMap(gen, url, ws)
		if err != nil {
			return
		}
		for line := 0; line <= 10; line++ {
			for col := -1; col <= 8; col++ {
				if p, l, c, ok := m.lookup(line, col); ok && (l < 1 || c < 0 || !inside(ws, p) && filepath.IsAbs(p)) {
					t.Fatalf("%d:%d → %s:%d:%d", line, col, p, l, c)
				}
			}
		}
		for p, r := range m.index() {
			for _, l := range r.lines {
				m.generated(p, l, 0)
			}
		}
	})
}
