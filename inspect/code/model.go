// model.go holds the public types of the code-context API (Query, Result,
// Ref, Options, Error) and the per-file records stored in the on-disk index.

package code

import (
	"fmt"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

// Source modes of a Result.
const (
	ModeSymbol = "symbol"
	ModeFile   = "file"
)

// Graph statuses of a Result.
const (
	GraphConnected  = "connected"
	GraphIsolated   = "isolated"
	GraphNotIndexed = "not_indexed"
)

// DefaultMaxNeighbors bounds every relationship list when Query.MaxNeighbors
// is zero.
const DefaultMaxNeighbors = 3

// Query selects what InspectEntity describes: a Symbol (Python
// "pkg.module.Class.method", Go "pkg.Func" / "pkg.Type.Method", Markdown
// "docs/x.md#Heading"), or a repo-relative Path with an optional 1-based Line.
// When both Symbol and Path are set, the symbol is looked up in that file only.
type Query struct {
	Symbol            string `json:"symbol,omitempty"`
	Path              string `json:"path,omitempty"`
	Line              int    `json:"line,omitempty"`
	IncludeFullSource bool   `json:"include_full_source,omitempty"`
	MaxNeighbors      int    `json:"max_neighbors,omitempty"`
}

// Ref names one related entity so that an agent can follow it with another
// call (pass both as Query.Symbol and Query.Path).
type Ref struct {
	Symbol string `json:"symbol"`
	Path   string `json:"path"`
}

// DefinedSymbol is one entry of Result.DefinedSymbols.
type DefinedSymbol struct {
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Type    string `json:"type"`
	Summary string `json:"summary"`
}

// Enrichment is what the index can say about an entity without a model:
// docstrings, signatures, raise/return statements and I/O calls. Every key is
// always present; lists are empty, not null, when nothing is known.
type Enrichment struct {
	Summary       string   `json:"summary"`
	Inputs        []string `json:"inputs"`
	Outputs       []string `json:"outputs"`
	SideEffects   []string `json:"side_effects"`
	Pitfalls      []string `json:"pitfalls"`
	EvidenceCount int      `json:"evidence_count"`
}

// Provenance says what kind of file the entity lives in and when it last
// changed in git. LastCommit and LastCommitDate are null without git.
type Provenance struct {
	Kind           string  `json:"kind"`
	LastCommit     *string `json:"last_commit"`
	LastCommitDate *string `json:"last_commit_date"`
	IndexedAt      *string `json:"indexed_at"`
}

// Result is the answer of InspectEntity. Symbol and Kind name the resolved
// entity (for file mode, the module / file itself).
type Result struct {
	Path           string          `json:"path"`
	SourceMode     string          `json:"source_mode"`
	Symbol         string          `json:"symbol"`
	Kind           string          `json:"kind"`
	Snippet        string          `json:"snippet"`
	FullSource     *string         `json:"full_source"`
	PrimarySpan    [2]int          `json:"primary_span"`
	FileSummary    string          `json:"file_summary"`
	DefinedSymbols []DefinedSymbol `json:"defined_symbols"`
	Parents        []Ref           `json:"parents"`
	Children       []Ref           `json:"children"`
	IncomingCalls  []Ref           `json:"incoming_calls"`
	OutgoingCalls  []Ref           `json:"outgoing_calls"`
	RelatedTests   []Ref           `json:"related_tests"`
	RelatedDocs    []Ref           `json:"related_docs"`
	Enrichment     Enrichment      `json:"enrichment"`
	Provenance     Provenance      `json:"provenance"`
	GraphStatus    string          `json:"graph_status"`
}

// errorf is a typed error (errcode); matches lists close symbols or paths
// for NOT_FOUND and the candidates for AMBIGUOUS.
func errorf(code errcode.Code, matches []string, format string, args ...any) *errcode.Error {
	return &errcode.Error{Code: code, Message: fmt.Sprintf(format, args...), Matches: matches}
}

// Options tunes Open. The zero value is ready to use.
type Options struct {
	// IndexDir is where the index is stored; default "<repoRoot>/.dapscope".
	// When it cannot be written the index lives in memory only.
	IndexDir string
	// Python is the interpreter whose ast module parses Python sources;
	// default the system's Python 3 (platform.Find).
	Python string
	// MaxFileBytes skips larger source files; default 1 MiB.
	MaxFileBytes int64
	// MaxFiles bounds how many source files are indexed; default 50,000.
	MaxFiles int
	// SkipDirs are extra directory names never walked (vendor, node_modules,
	// .git, .dapscope, __pycache__ and hidden directories always are).
	SkipDirs []string
	// MaxNeighbors is the default relationship bound; default 3.
	MaxNeighbors int
	// NoGit disables provenance lookups (last_commit stays null).
	NoGit bool
	// ParseTimeout bounds one Python parser batch (and one TypeScript
	// type-stripping batch); default 5 minutes.
	ParseTimeout time.Duration
	// Node is the node binary that strips TypeScript types
	// (module.stripTypeScriptTypes, Node >= 22.13 / 23.2); default "node"
	// on PATH. JavaScript needs no Node: it is parsed in process.
	Node string
}

func (o *Options) defaults() {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 1 << 20
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = 50000
	}
	if o.MaxNeighbors <= 0 {
		o.MaxNeighbors = DefaultMaxNeighbors
	}
	if o.ParseTimeout <= 0 {
		o.ParseTimeout = 5 * time.Minute
	}
}

// Stats reports what the last Open or Refresh did.
type Stats struct {
	Files   int // source files in the index
	Parsed  int // files (re)parsed in this refresh
	Reused  int // files whose stored record was reused (content unchanged)
	Removed int // files dropped since the previous index
	Saved   bool
}

// Stored records (gob-encoded under .dapscope/). Field names are short on
// purpose; the store has a version and is rebuilt when it changes.

// fileRec is one indexed file.
type fileRec struct {
	Path      string // repo-relative, slash-separated
	Lang      string // python, go, markdown, javascript, typescript
	Kind      string // code, test, docs, config
	Module    string // Python dotted module, Go package name, JS/TS path without extension, Markdown path
	Dir       string // Go: slash directory (import identity); others: ""
	Hash      string // sha256 of the content
	Size      int64
	ModTime   int64 // unix nanoseconds
	IndexedAt int64 // unix seconds
	Lines     int
	Doc       string   // module docstring / package comment
	Imports   []imp    // local name -> qualified target (JS: jsTarget)
	Exports   []imp    // JS: exported name -> local name or jsTarget
	Calls     []call   // module-level calls
	Defs      []def    // definitions in source order
	Mentions  []string // Markdown: per-def mentions are in def.Mentions; file-level here
	Err       string   // parse error; the file then has no graph
}

type imp struct {
	Name   string // local name ("*" for star imports)
	Target string // Python dotted target; Go import path
}

type call struct {
	Name string // raw dotted callee ("add", "self.push", "mathx.Sum")
	Recv string // known type of the first component ("@self" for self/receiver)
	Line int
}

type attr struct {
	Name string
	Type string // a type name, or "()f" for the result of calling f
}

type param struct {
	Name    string
	Type    string
	Default string
	HasDef  bool
}

type def struct {
	Name     string // local qualified name ("Class.method"; Go "Type.Method")
	Kind     string // function, method, class, test, type, struct, interface, doc-section
	Start    int
	End      int
	Parent   string // local name of the containing def ("" = module level)
	Doc      string
	DocSpan  [2]int // docstring lines (Python), zero when none
	Params   []param
	Returns  string   // annotation / result types
	RetExprs []string // up to three return expressions
	Yields   bool
	Raises   []string // exception names raised in the body; Go: "panic"
	Globals  []string // module/package-level names written
	Calls    []call
	Bases    []string // Python class bases; Go embedded types
	Attrs    []attr   // attribute types: Python self.x = T(...), x: T; Go struct fields
	Mentions []string // Markdown sections: code mentions
}

// ResultKeys are the top-level JSON keys of every Result, in order.
var ResultKeys = []string{
	"path", "source_mode", "symbol", "kind", "snippet", "full_source", "primary_span",
	"file_summary", "defined_symbols", "parents", "children", "incoming_calls",
	"outgoing_calls", "related_tests", "related_docs", "enrichment", "provenance", "graph_status",
}
