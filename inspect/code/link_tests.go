// link_tests.go links tests to their subjects by name (test files and test
// functions named after a symbol or its class) and ranks a symbol's related
// tests: those named after it first, then those named after its class, then
// the ones found by call evidence alone.

package code

import (
	"sort"
	"strings"
)

// linkTests links tests to subjects: by name first (in parallel), then by
// the calls they make (and one level through test helpers), in id order.
func (g *graph) linkTests(files int) {
	g.pyNames = map[string]bool{}
	for id := range g.ents {
		if e := &g.ents[id]; e.d != nil && e.file.Lang == "python" && !e.isTest() {
			g.pyNames[e.d.Name[strings.LastIndexByte(e.d.Name, '.')+1:]] = true
		}
	}
	byName := g.parallel(files, func(l *linker, id int32) []int32 {
		if g.ents[id].kind != "test" {
			return nil
		}
		return l.testsByName(id)
	})
	for id := range g.ents {
		e := &g.ents[id]
		if e.kind != "test" {
			continue
		}
		add := func(t int32) {
			if t < 0 || g.ents[t].isTest() || containsID(e.subjects, t) {
				return
			}
			e.subjects = append(e.subjects, t)
			g.ents[t].tests = append(g.ents[t].tests, int32(id))
		}
		for _, t := range byName[id] {
			add(t)
		}
		for _, t := range e.out {
			add(t)
			// One level through helpers defined in test files
			// (runCLI(t, ...) -> the command under test).
			if h := &g.ents[t]; h.isTest() && h.kind != "test" {
				for _, t2 := range h.out {
					add(t2)
				}
			}
		}
	}
}

// testsByName finds the subjects a test names: test_add / test_add_negative
// -> add; TestCalculator.test_total -> Calculator.total; Go TestAcc_Add ->
// Acc.Add, TestSum -> Sum. Only names visible from the test file (its own
// module, its imports, the module the test file is named after, or the same
// Go package) count.
func (g *linker) testsByName(id int32) []int32 {
	e := &g.ents[id]
	fr := e.file
	local := e.d.Name
	last := local[strings.LastIndexByte(local, '.')+1:]
	var out []int32
	if isJSLang(fr.Lang) {
		return g.jsTestsByName(id)
	}
	if fr.Lang == "go" {
		base := last
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if b, ok := strings.CutPrefix(last, p); ok {
				base = strings.TrimPrefix(b, "_")
				break
			}
		}
		if base == "" {
			return nil
		}
		segs := strings.Split(base, "_")
		for n := len(segs); n >= 1; n-- {
			if id, ok := g.goLocal[fr.Dir+"\x00"+strings.Join(segs[:n], ".")]; ok && !g.ents[id].isTest() {
				return []int32{id}
			}
		}
		return nil
	}
	base := strings.TrimPrefix(strings.TrimPrefix(last, "test"), "_")
	var cls string
	if p := e.parent; p >= 0 && g.ents[p].d != nil && g.ents[p].kind == "class" {
		cls = strings.TrimPrefix(g.ents[p].d.Name[strings.LastIndexByte(g.ents[p].d.Name, '.')+1:], "Test")
	}
	// Modules named after the test file: tests/test_core.py -> *.core.
	_, fbase := splitPath(fr.Path)
	subjMod := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(fbase, ".py"), "test_"), "_test")
	lookup := func(name string) int32 {
		if !g.pyNames[name[strings.LastIndexByte(name, '.')+1:]] {
			return -1
		}
		parts := strings.Split(name, ".")
		if t := g.resolvePyName(id, parts, 0); t >= 0 && !g.ents[t].isTest() {
			return t
		}
		for _, mod := range g.pyModsByLast[subjMod] {
			if t := g.pyLocal(mod, parts[0]); t >= 0 {
				if t = g.descend(t, parts[1:], 0); t >= 0 && !g.ents[t].isTest() {
					return t
				}
			}
		}
		return -1
	}
	segs := strings.Split(base, "_")
	for n := len(segs); n >= 1; n-- {
		name := strings.Join(segs[:n], "_")
		if name == "" {
			continue
		}
		if cls != "" {
			if t := lookup(cls + "." + name); t >= 0 {
				return append(out, t)
			}
		}
		if t := lookup(name); t >= 0 {
			return append(out, t)
		}
	}
	if cls != "" {
		if t := lookup(cls); t >= 0 {
			out = append(out, t)
		}
	}
	return out
}

// rankTests orders the related tests of entity id, stably: tests whose
// function or file is named after the entity (test_head_tail.py,
// test_head for head) first, then those named after its class
// (TestNDFrame), then the rest, found by calls.
func (g *graph) rankTests(id int32, tests []int32) []int32 {
	e := &g.ents[id]
	if e.d == nil {
		return tests
	}
	name := strings.ToLower(e.d.Name[strings.LastIndexByte(e.d.Name, '.')+1:])
	cls := ""
	if p := e.parent; p >= 0 && g.ents[p].kind == "class" && g.ents[p].d != nil {
		cls = strings.ToLower(g.ents[p].d.Name[strings.LastIndexByte(g.ents[p].d.Name, '.')+1:])
	}
	score := func(t int32) int {
		te := &g.ents[t]
		words := testWords(te)
		switch {
		case words[name]:
			return 2
		case cls != "" && words[cls]:
			return 1
		}
		return 0
	}
	out := append([]int32(nil), tests...)
	scores := make(map[int32]int, len(out))
	for _, t := range out {
		scores[t] = score(t)
	}
	sort.SliceStable(out, func(i, j int) bool { return scores[out[i]] > scores[out[j]] })
	return out
}

// testWords are the lower-case words naming a test: its function (and
// class) names without the test prefixes, and its file's base name.
func testWords(te *entity) map[string]bool {
	words := map[string]bool{}
	add := func(s string) {
		for _, p := range []string{"test_", "test", "_test"} {
			s = strings.TrimPrefix(s, p)
		}
		s = strings.TrimSuffix(s, "_test")
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '.' || r == ' ' }) {
			words[w] = true
		}
	}
	if te.d != nil {
		for _, part := range strings.Split(te.d.Name, ".") {
			add(strings.ToLower(part))
		}
	}
	_, base := splitPath(te.file.Path)
	if isJSLang(te.file.Lang) {
		base = jsSubjectStem(base)
	}
	add(strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(base, ".py"), ".go")))
	return words
}
