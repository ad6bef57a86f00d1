// browse.go: browse the whole value — a window of rows of the sorted and
// filtered view of a table-like value (DataFrame, Series, 1-D/2-D array,
// list of records), computed in the debuggee by the probe's select(): one
// evaluate per page, the order cached there per value, selection and stop.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

// Selection chooses what part of a table to return.
type Selection struct {
	// Columns by name, glob ("feature_*") or position (int); none: all.
	Columns []any `json:"columns,omitempty"`
	// Rows is the window on the sorted/filtered view (default 0, 100).
	Rows *RowWindow `json:"rows,omitempty"`
	// Sort keys, stable, nulls last.
	Sort []SortKey `json:"sort,omitempty"`
	// Filter keeps the rows where it holds, in the debuggee's language.
	// Python: a boolean expression over the column names in the syntax of
	// DataFrame.query (arrays: columns are named 0, 1, …, written `0`):
	// names, literals, comparisons, and/or/not, arithmetic and a few
	// methods (isin, isna, notna, between, str.contains…); anything else is
	// refused (INVALID_EXPRESSION naming the part); a comparison with a
	// missing value is unknown, and an unknown row is no match.
	// JavaScript: an expression over the row's fields (qty > 5 && city ===
	// "Nice"; $row is the row, $i its position) run under V8's side-effect
	// check, so it cannot change the program.
	Filter string `json:"filter,omitempty"`
	// Count asks for the totals (total_rows, all_rows) where an engine
	// counts them in a job of its own (Spark, Dask): without it their
	// first page comes at once, its totals left out (Page.TotalPending);
	// with rows.limit 0 the answer is the count alone.
	Count bool `json:"count,omitempty"`
}

// RowWindow is a window of rows.
type RowWindow struct {
	Offset int64 `json:"offset"`
	Limit  int   `json:"limit"`
}

// SortKey is one sort column.
type SortKey struct {
	Column     any  `json:"column"` // name or position
	Descending bool `json:"descending,omitempty"`
}

// Page is one window of rows, the same model from both probes.
type Page struct {
	// Kind is what was browsed: dataframe, series, ndarray, records (a
	// list or array of records), and in JavaScript also list (an array of
	// other values), map and set (their entries).
	Kind string `json:"kind"`
	// TotalRows counts the rows of the filtered view, AllRows those before
	// the filter; both absent where they are not counted yet
	// (TotalPending says so): Total and All read them.
	TotalRows   *int64       `json:"total_rows,omitempty"`
	AllRows     *int64       `json:"all_rows,omitempty"`
	Offset      int64        `json:"offset"`
	Limit       int          `json:"limit"`
	Positions   []int64      `json:"positions"`       // of the rows in the original value
	Index       Cells        `json:"index,omitempty"` // labels; absent when they are the positions (0, 1, 2, …)
	Columns     []PageColumn `json:"columns"`
	ColumnCount int          `json:"column_count"`
	Rows        Rows         `json:"rows"`
	Cached      bool         `json:"cached,omitempty"`
	Filter      string       `json:"filter,omitempty"`
	// FilterNA counts the rows where the filter was unknown (a missing
	// value compared): they are not in the page, and not in TotalRows.
	FilterNA int64     `json:"filter_na_rows,omitempty"`
	Sort     []SortKey `json:"sort,omitempty"`
	// Computed names what an engine ran for the page (DuckDB, Spark, Dask).
	Computed string `json:"computed,omitempty"`
	// TotalPending says why the totals are absent and how they come: an
	// engine whose count is a job of its own (Spark, Dask) answers its
	// page first and counts on request (Selection.Count).
	TotalPending string `json:"total_pending,omitempty"`
}

// Total is the filtered view's row count, -1 when not counted yet.
func (p *Page) Total() int64 {
	if p.TotalRows == nil {
		return -1
	}
	return *p.TotalRows
}

// All is the row count before the filter, -1 when not counted yet.
func (p *Page) All() int64 {
	if p.AllRows == nil {
		return -1
	}
	return *p.AllRows
}

// PageColumn is a column of a page.
type PageColumn struct {
	Name  string `json:"name"`
	Dtype string `json:"dtype,omitempty"`
}

// PageResult is a page of a named value.
type PageResult struct {
	Name     string         `json:"name"`
	Type     string         `json:"type,omitempty"`
	Page     *Page          `json:"page,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	Partial  bool           `json:"partial,omitempty"`
	TimedOut []string       `json:"timed_out,omitempty"`
	ProbeMs  float64        `json:"probe_ms,omitempty"`
	Error    *errcode.Error `json:"error,omitempty"`
}

// Validate checks the selection's bounds.
func (s *Selection) Validate() error {
	if s.Rows != nil {
		if s.Rows.Offset < 0 {
			return &errcode.Error{Code: errcode.InvalidArgument, Message: "rows.offset must not be negative"}
		}
		if s.Rows.Limit < 0 || s.Rows.Limit > MaxPageRows {
			return &errcode.Error{Code: errcode.InvalidArgument, Message: fmt.Sprintf("rows.limit must be 0..%d", MaxPageRows)}
		}
	}
	if n := len(s.Filter); n > ProbeLimits.FilterChars {
		return &errcode.Error{Code: errcode.InvalidExpression, Message: fmt.Sprintf("filter refused: %d bytes, at most %d", n, ProbeLimits.FilterChars)}
	}
	for _, c := range append(append([]any(nil), s.Columns...), sortColumns(s.Sort)...) {
		switch c.(type) {
		case string, float64, int, int64, json.Number:
		default:
			return &errcode.Error{Code: errcode.InvalidArgument, Message: fmt.Sprintf("a column is a name, a glob or a position, not %v", c)}
		}
	}
	return nil
}

func sortColumns(keys []SortKey) []any {
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k.Column
	}
	return out
}

// stopper is a Target that numbers its stops (the probe's cached orders
// are dropped at a new stop).
type stopper interface{ StopGen() int }

// valuesGen is a Target that numbers the changes it sees: stops, and
// every evaluate, setVariable or step but the probe's own calls
// (IsProbeCall). The probe's cached orders are dropped when it moves.
type valuesGen interface{ ValuesGen() int }

// valuesGenOf numbers the values t's debuggee holds (a new number once
// they may have changed), when t keeps such a count.
func valuesGenOf(t Target) (int, bool) {
	if s, ok := t.(valuesGen); ok {
		return s.ValuesGen(), true
	} else if s, ok := t.(stopper); ok {
		return s.StopGen(), true
	}
	return 0, false
}

// Browse returns a page of the value at expression in frameID (0: top).
func Browse(ctx context.Context, t Target, frameID int, expression string, sel Selection, opts Options) (*PageResult, error) {
	if err := opts.Normalize(); err != nil {
		return nil, err
	}
	if err := sel.Validate(); err != nil {
		return nil, err
	}
	if sel.Filter != "" && t.Language() == JavaScript {
		// the filter's grammar, checked before anything is sent
		if err := ValidateJSFilter(sel.Filter); err != nil {
			return nil, err
		}
	}
	p := probeFor(t.Language())
	if p == nil || !p.has("select") {
		return nil, &errcode.Error{Code: errcode.InvalidArgument, Message: "browsing rows needs a probe (Python, JavaScript or lldb sessions): " + string(t.Language()) + " sessions cannot page a value"}
	}
	path, err := ParsePathFor(t.Language(), expression)
	if err != nil {
		return nil, err
	}
	threadID, ok := t.Paused()
	if !ok {
		return nil, resumedError(t)
	}
	rctx, cancel := context.WithTimeout(ctx, seconds(opts.RequestTimeout))
	defer cancel()
	if frameID == 0 {
		if frameID, err = topFrame(rctx, t, threadID); err != nil {
			return nil, requestError(ctx, rctx, err, "stackTrace")
		}
	}
	gen, _ := valuesGenOf(t)
	args := map[string]any{"path": path, "selection": sel, "gen": gen, "timeout": opts.Timeout, "precision": opts.Precision, "slot": p.slot}
	root, _ := path[0].Value.(string)
	out, err := selectCall(ctx, rctx, t, p, frameID, root, args)
	if err == nil && out.FilterNeeded != nil {
		// The JavaScript probe asks for its filter's rows: ONE evaluate of
		// its own under the side-effect check, whose answer goes back with
		// the same call.
		var mask string
		if mask, err = filterRows(rctx, t, p, frameID, sel.Filter, out.FilterNeeded.Expression); err != nil {
			if ne := resumedError(t); ne != nil {
				return nil, ne
			}
			return nil, requestError(ctx, rctx, err, "filter")
		}
		args["mask"] = mask
		if out, err = selectCall(ctx, rctx, t, p, frameID, root, args); err == nil && out.FilterNeeded != nil {
			err = &errcode.Error{Code: errcode.Internal, Message: "the probe asked for the filter's rows twice"}
		}
	}
	if err != nil {
		return nil, err
	}
	if out.Page != nil {
		out.Page.settle()
	}
	return &out.PageResult, nil
}

// settle makes a page's lists empty rather than absent: an empty table, a
// filter that matches nothing and a window past the end answer rows [] and
// positions [] from either probe, never null (the viewer and agents index
// them; issue #28.7).
func (p *Page) settle() {
	if p.Rows == nil {
		p.Rows = Rows{}
	}
	if p.Positions == nil {
		p.Positions = []int64{}
	}
	if p.Columns == nil {
		p.Columns = []PageColumn{}
	}
}

// pageAnswer is a select call's answer: a page, an error, or the
// expression of the filter's own evaluate.
type pageAnswer struct {
	PageResult
	FilterNeeded *struct {
		Expression string `json:"expression"`
	} `json:"filter_needed,omitempty"`
}

// selectCall is one call of the probe's select.
func selectCall(ctx, rctx context.Context, t Target, p *probe, frameID int, root string, args map[string]any) (*pageAnswer, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	raw, err := p.call(rctx, t, frameID, "select", []string{root}, string(b))
	if err != nil {
		if ne := resumedError(t); ne != nil {
			return nil, ne
		}
		return nil, requestError(ctx, rctx, err, "selection")
	}
	var out pageAnswer
	if err := decodePage(raw, &out); err != nil {
		return nil, &errcode.Error{Code: errcode.Internal, Message: "undecodable page: " + clip.Bytes.Head(raw, 300)}
	}
	if out.Error != nil {
		return nil, out.Error
	}
	return &out, nil
}

// FormatPage renders a page as a compact markdown table: the original
// position of each row, then the chosen columns (cells cut to 40
// characters).
func FormatPage(p *Page) string {
	var b strings.Builder
	total, all := p.Total(), p.All()
	of := strconv.FormatInt(total, 10)
	if total < 0 {
		of = "? (not counted: " + p.TotalPending + "; compute counts it)" // MCP's compute, the CLI's --compute
	}
	switch {
	case len(p.Rows) > 0:
		fmt.Fprintf(&b, "rows %d–%d of %s", p.Offset, p.Offset+int64(len(p.Rows)), of)
	case p.Limit == 0 && total >= 0: // the count alone
		fmt.Fprintf(&b, "%d rows", total)
	case all == 0:
		b.WriteString("no rows: the table is empty")
	case total == 0 && all < 0:
		b.WriteString("no rows match the filter")
	case total == 0:
		fmt.Fprintf(&b, "no rows of %d match the filter", all)
	default:
		fmt.Fprintf(&b, "no rows at offset %d (limit %d) of %s", p.Offset, p.Limit, of)
	}
	if total != all && total > 0 && all >= 0 {
		fmt.Fprintf(&b, " (filtered from %d)", all)
	}
	if p.FilterNA > 0 {
		fmt.Fprintf(&b, "; %d rows unknown to the filter (missing values) left out", p.FilterNA)
	}
	if len(p.Columns) != p.ColumnCount {
		fmt.Fprintf(&b, "; %d of %d columns", len(p.Columns), p.ColumnCount)
	}
	b.WriteString("\n| pos |")
	for _, c := range p.Columns {
		fmt.Fprintf(&b, " %s |", pageCell(c.Name))
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(p.Columns)))
	values := make([][]any, len(p.Rows))
	for i, row := range p.Rows {
		values[i] = row
	}
	texts := (&Result{}).columnCells(values, 1<<20) // one number format per column
	for i, row := range p.Rows {
		fmt.Fprintf(&b, "\n| %d |", p.Positions[i])
		for j, v := range row {
			t := texts[i][j]
			if v == nil {
				t = "—"
			}
			fmt.Fprintf(&b, " %s |", clip.Runes.Fit(strings.ReplaceAll(t, "|", "\\|"), 40))
		}
	}
	b.WriteByte('\n')
	return b.String()
}

func pageCell(v any) string {
	s := "—"
	if v != nil {
		s = strings.ReplaceAll(fmt.Sprint(v), "|", "\\|")
	}
	return clip.Runes.Fit(s, 40)
}

// ParseSortKeys reads "col,-col2,3" (a leading - sorts descending;
// digits are positions) into sort keys.
func ParseSortKeys(s string) []SortKey {
	var out []SortKey
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k := SortKey{}
		if strings.HasPrefix(part, "-") {
			k.Descending, part = true, part[1:]
		}
		k.Column = columnRef(part)
		out = append(out, k)
	}
	return out
}

// ParseColumns reads "a,b,feature_*,3" into column references.
func ParseColumns(s string) []any {
	var out []any
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, columnRef(part))
		}
	}
	return out
}

func columnRef(s string) any {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return s
}
