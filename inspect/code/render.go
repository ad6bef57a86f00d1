// render.go renders a Result as compact text for people and agents: a
// "# KEY:" header (file, mode, symbol, kind, summary, defined symbols,
// relationships, enrichment, provenance), then "# SNIPPET (lines a–b):" and
// the snippet, and the whole file only when it was asked for.

package code

import (
	"fmt"
	"strings"
)

// Text renders r; the full source appears only if r.FullSource is set.
func (r *Result) Text() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# FILE: %s\n", r.Path)
	w("# SOURCE_MODE: %s\n", r.SourceMode)
	w("# SYMBOL: %s\n", r.Symbol)
	w("# KIND: %s\n", r.Kind)
	summary := r.Enrichment.Summary
	if summary == "" && r.SourceMode == ModeFile {
		summary = r.FileSummary
	}
	w("# SUMMARY: %s\n", orDash(oneLine(summary)))
	if r.SourceMode == ModeSymbol {
		w("# FILE_SUMMARY: %s\n", orDash(oneLine(r.FileSummary)))
	}
	w("# GRAPH_STATUS: %s\n", r.GraphStatus)
	w("# DEFINED SYMBOLS:\n")
	if len(r.DefinedSymbols) == 0 {
		w("#   (none)\n")
	}
	for _, d := range r.DefinedSymbols {
		w("#   %s (%s, line %d)", d.Name, d.Type, d.Line)
		if d.Summary != "" {
			w(": %s", oneLine(d.Summary))
		}
		w("\n")
	}
	w("# RELATIONSHIPS:\n")
	for _, rel := range []struct {
		name string
		refs []Ref
	}{
		{"parents", r.Parents}, {"children", r.Children},
		{"incoming_calls", r.IncomingCalls}, {"outgoing_calls", r.OutgoingCalls},
		{"related_tests", r.RelatedTests}, {"related_docs", r.RelatedDocs},
	} {
		parts := make([]string, 0, len(rel.refs))
		for _, ref := range rel.refs {
			parts = append(parts, ref.Symbol+" ("+ref.Path+")")
		}
		if len(parts) == 0 {
			parts = append(parts, "-")
		}
		w("#   %s: %s\n", rel.name, strings.Join(parts, "; "))
	}
	en := r.Enrichment
	if len(en.Inputs)+len(en.Outputs)+len(en.SideEffects)+len(en.Pitfalls) > 0 {
		w("# ENRICHMENT (evidence %d):\n", en.EvidenceCount)
		for _, l := range []struct {
			name  string
			items []string
		}{{"inputs", en.Inputs}, {"outputs", en.Outputs}, {"side_effects", en.SideEffects}, {"pitfalls", en.Pitfalls}} {
			if len(l.items) > 0 {
				w("#   %s: %s\n", l.name, strings.Join(l.items, "; "))
			}
		}
	}
	p := r.Provenance
	w("# PROVENANCE: kind=%s last_commit=%s date=%s indexed_at=%s\n", p.Kind, deref(p.LastCommit), deref(p.LastCommitDate), deref(p.IndexedAt))
	w("# SNIPPET (lines %d–%d):\n", r.PrimarySpan[0], r.PrimarySpan[1])
	b.WriteString(r.Snippet)
	if !strings.HasSuffix(r.Snippet, "\n") {
		b.WriteByte('\n')
	}
	if r.FullSource != nil {
		w("# FULL SOURCE (%s):\n", r.Path)
		b.WriteString(*r.FullSource)
		if !strings.HasSuffix(*r.FullSource, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// orDash stands "-" for a missing value, as the relationship lines do, so
// no line ends in a blank.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
