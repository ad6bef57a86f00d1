// budget.go: fitting a Result into an agent's byte budget (MCP max_bytes,
// default 8 KB). Unlike the hard size cap (cap.go), it drops whole facts in a
// fixed order, cheapest to lose first: tail rows, preview rows, per-column
// histograms, quantiles, then columns beyond those that fit (columns with
// nulls, infinities or mixed types kept first), and says what it dropped
// and which argument brings it back.

package inspect

import (
	"fmt"
	"sort"
	"strings"
)

// Dropped is one fact left out to fit a budget and how to get it.
type Dropped struct {
	What string `json:"what"`
	How  string `json:"how"`
}

// BudgetNote says how a result was fitted into a byte budget.
type BudgetNote struct {
	MaxBytes int       `json:"max_bytes"`
	Dropped  []Dropped `json:"dropped"`
}

// BudgetLine is the one line every text format (markdown, tui, table,
// MCP's text) ends with when a budget left facts out: "left out to fit
// max_bytes=2000: tail rows and preview rows; 6 of 10 columns (…)"; "" when
// nothing was.
func BudgetLine(n *BudgetNote) string {
	if n == nil || len(n.Dropped) == 0 {
		return ""
	}
	whats := make([]string, len(n.Dropped))
	for i, d := range n.Dropped {
		whats[i] = d.What
	}
	return fmt.Sprintf("left out to fit max_bytes=%d: %s (budget.dropped says how to get each)", n.MaxBytes, strings.Join(whats, "; "))
}

// Fit drops facts from r until its JSON encoding is at most limit bytes
// (or nothing is left to drop in this order) and returns what it dropped
// (nil when r fit already).
func Fit(r *Result, limit int) *BudgetNote {
	if Size(r) <= limit {
		return nil
	}
	KeepProblems(r) // named in the text whatever goes (problems.go)
	note := &BudgetNote{MaxBytes: limit}
	r.Budget = note
	fits := func() bool { return Size(r) <= limit }
	drop := func(what, how string) {
		if n := len(note.Dropped); n > 0 && note.Dropped[n-1].How == how { // one entry per way back
			note.Dropped[n-1].What += " and " + what
			return
		}
		note.Dropped = append(note.Dropped, Dropped{What: what, How: how})
	}
	name := r.Name
	if name == "" {
		name = "the value"
	}
	steps := []struct {
		has  func() bool
		do   func()
		what string
		how  string
	}{
		{func() bool { return r.Preview != nil && (len(r.Preview.Tail) > 0 || len(r.Preview.TailItems) > 0) },
			func() { r.Preview.Tail, r.Preview.TailItems = nil, nil }, "tail rows",
			"rows {offset, limit} pages through all rows"},
		{func() bool { return r.Preview != nil }, func() { r.Preview = nil }, "preview rows",
			"rows {offset: 0, limit: 20}, or a larger max_bytes"},
		{func() bool { return statsHave(r, func(s *Statistics) bool { return s.Histogram != nil }) },
			func() { statsEach(r, func(s *Statistics) { s.Histogram = nil }) }, "histograms",
			fmt.Sprintf("inspect one column (%s['col']) or a larger max_bytes", name)},
		{func() bool { return statsHave(r, func(s *Statistics) bool { return s.Quantiles != nil }) },
			func() { statsEach(r, func(s *Statistics) { s.Quantiles = nil }) }, "quantiles",
			fmt.Sprintf("inspect one column (%s['col']) or a larger max_bytes", name)},
	}
	for _, st := range steps {
		if fits() {
			return note
		}
		if st.has() {
			st.do()
			drop(st.what, st.how)
		}
	}
	if !fits() {
		if total := columnCount(r); total > 1 {
			what := func(dropped int) string {
				return fmt.Sprintf("%d of %d columns (those with problems kept first)", dropped, total)
			}
			// The note goes in first, so the search counts it (its final
			// text is never longer).
			drop(what(total), "columns: [names, globs, positions] picks them")
			kept := keepPriorityColumns(r, total, fits)
			note.Dropped[len(note.Dropped)-1].What = what(total - kept)
		}
	}
	return note
}

func statsEach(r *Result, f func(*Statistics)) {
	if r.Statistics == nil {
		return
	}
	f(r.Statistics)
	for i := range r.Statistics.Columns {
		f(&r.Statistics.Columns[i])
	}
}

func statsHave(r *Result, pred func(*Statistics) bool) bool {
	found := false
	statsEach(r, func(s *Statistics) { found = found || pred(s) })
	return found
}

// keepPriorityColumns keeps the most columns that fit, choosing columns
// with problems first and otherwise the first ones, in their original
// order; it returns how many it kept.
func keepPriorityColumns(r *Result, total int, fits func() bool) int {
	s, st := r.Structure, r.Statistics
	if s == nil || len(s.Columns) == 0 {
		return total
	}
	if s.ColumnCount == nil {
		n := int64(len(s.Columns))
		s.ColumnCount = &n
	}
	problem := map[string]bool{}
	for _, c := range s.Columns {
		if c.NullCount != nil && *c.NullCount > 0 {
			problem[c.Name] = true
		}
	}
	if st != nil {
		for _, c := range st.Columns {
			if (c.InfCount != nil && *c.InfCount > 0) || len(c.ElementTypes) > 1 {
				problem[c.Name] = true
			}
		}
	}
	order := make([]int, len(s.Columns))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return problem[s.Columns[order[a]].Name] && !problem[s.Columns[order[b]].Name] })
	allCols, allStats := s.Columns, []Statistics(nil)
	if st != nil {
		allStats = st.Columns
	}
	keep := func(k int) {
		chosen := append([]int(nil), order[:k]...)
		sort.Ints(chosen)
		names := map[string]bool{}
		s.Columns = make([]Column, 0, k)
		for _, i := range chosen {
			s.Columns = append(s.Columns, allCols[i])
			names[allCols[i].Name] = true
		}
		if st != nil {
			st.Columns = st.Columns[:0:0]
			for _, c := range allStats {
				if names[c.Name] {
					st.Columns = append(st.Columns, c)
				}
			}
		}
	}
	// The largest k that fits (at least one column).
	return keepMost(1, len(allCols), keep, fits)
}

// FitPage keeps the most leading rows of p (at least one) for which fits
// holds, and returns how many it kept.
func FitPage(p *Page, fits func() bool) int {
	rows, pos, idx := p.Rows, p.Positions, p.Index
	keep := func(k int) {
		p.Rows = rows[:k]
		if len(pos) >= k {
			p.Positions = pos[:k]
		}
		if len(idx) >= k {
			p.Index = idx[:k]
		}
	}
	return keepMost(min(1, len(rows)), len(rows), keep, fits)
}

// keepMost finds by binary search the largest k in [lo, hi] for which
// fits holds after keep(k) (lo when none does), leaves keep(k) applied and
// returns k. fits must hold for every k below one for which it holds.
func keepMost(lo, hi int, keep func(int), fits func() bool) int {
	for lo < hi {
		mid := (lo + hi + 1) / 2
		keep(mid)
		if fits() {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	keep(lo)
	return lo
}
