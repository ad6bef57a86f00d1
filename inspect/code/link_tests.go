// link_tests.go links tests to their subjects by name: test files and
// test functions named after a symbol or its class.

package code

import (
	"strings"
)

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
				if t = g.descend(t, parts[1:]); t >= 0 && !g.ents[t].isTest() {
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
