// Package code is dapscope's code context: one cheap call that tells an
// agent what a symbol or file is and how it connects, from a precomputed
// code graph (no embedding models).
//
// API (used by the CLI `dapscope code inspect` and the MCP tool
// `code_inspect`):
//
//	ix, err := code.Open(repoRoot, code.Options{})        // load/refresh .dapscope/
//	res, err := ix.InspectEntity(code.Query{Symbol: "calc.core.add"})
//	res, err := ix.InspectEntity(code.Query{Path: "calc/core.py", Line: 42})
//	sym, callers, ok := ix.Enclosing("/abs/or/rel/path.py", 42) // stop responses
//	res, err := code.InspectEntity(repoRoot, q)           // one-shot: Open + InspectEntity
//
// Open walks the repository (Python, Go, Markdown, JavaScript,
// TypeScript, Rust, C and C++ files; vendor,
// node_modules, testdata, __pycache__, hidden directories and .dapscope are
// skipped, as are files over Options.MaxFileBytes), re-parses only files
// whose size/mtime changed and whose sha256 differs from the stored record,
// links the graph in memory and writes the store atomically (temp file +
// rename) to <repoRoot>/.dapscope/code-index.gob. A warm Open parses
// nothing.
//
// Resolution: Query.Symbol first (Python "pkg.module.Class.method", Go
// "pkg.Func" or "pkg.Type.Method", Markdown "docs/x.md#Heading"; leading
// unknown package components and unique dotted suffixes are accepted), else
// Query.Path + Query.Line (the innermost definition covering the line), else
// the file. Failures are *errcode.Error values with Code NOT_FOUND (with close
// Matches), AMBIGUOUS (Matches lists candidates; add Query.Path),
// INVALID_PATH (absolute paths, "..") or INVALID_ARGUMENT.
//
// The Result's JSON keys are path, source_mode, symbol, kind, snippet,
// full_source, primary_span, file_summary, defined_symbols, parents,
// children, incoming_calls, outgoing_calls, related_tests, related_docs,
// enrichment {summary, inputs, outputs, side_effects, pitfalls,
// evidence_count}, provenance {kind, last_commit, last_commit_date,
// indexed_at} and graph_status (connected | isolated | not_indexed).
// Result.Text renders the CLI's text form.
//
// Python is parsed by the interpreter's own ast module (pyast_helper.py,
// one subprocess per re-index batch): the real grammar of the installed
// Python with no cgo. Go is parsed with go/parser. JavaScript is parsed in
// process by sobek's ECMAScript parser (pure Go); TypeScript is first
// stripped of its types by Node's module.stripTypeScriptTypes
// (ts_strip_helper.js, one `node -e` per batch, positions kept). Symbols
// of JS/TS are "path/without/ext.Class.method" (docs/mcp.md).
package code
