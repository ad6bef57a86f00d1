// browse.go: the row-browsing arguments of debug_inspect_variable —
// columns, rows, sort, filter — computed in the debuggee (inspect.Browse)
// and returned as a page beside the summary (whose statistics follow the
// selection), with inspect.FormatPage's table as text, the whole answer
// within max_bytes.

package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// browseArgs select part of a table (DataFrame, Series, 1-D/2-D array,
// list of records); any of them returns `page` beside the summary.
type browseArgs struct {
	Columns []columnRef `json:"columns,omitempty" jsonschema:"names, globs, positions"`
	Rows    *rowsArg    `json:"rows,omitempty"`
	Sort    []sortArg   `json:"sort,omitempty"`
	Filter  string      `json:"filter,omitempty" jsonschema:"DataFrame.query; JS on Node"`
}

// columnRef is a column of a table: a name or glob (a string, "3" too), or
// a position (an integer); its schema says so (schema.go).
type columnRef any

type rowsArg struct {
	Offset int64 `json:"offset,omitempty" minimum:"0"`
	Limit  int   `json:"limit,omitempty" minimum:"0" maximum:"1000"`
}

type sortArg struct {
	Column     columnRef `json:"column"`
	Descending bool      `json:"descending,omitempty"`
}

func (b *browseArgs) wanted() bool {
	return len(b.Columns) > 0 || b.Rows != nil || len(b.Sort) > 0 || b.Filter != ""
}

func (b *browseArgs) selection() inspect.Selection {
	sel := inspect.Selection{Filter: b.Filter}
	for _, c := range b.Columns {
		sel.Columns = append(sel.Columns, c)
	}
	if b.Rows != nil {
		limit := b.Rows.Limit
		if limit == 0 {
			limit = 100
		}
		sel.Rows = &inspect.RowWindow{Offset: b.Rows.Offset, Limit: limit}
	}
	for _, k := range b.Sort {
		sel.Sort = append(sel.Sort, inspect.SortKey{Column: k.Column, Descending: k.Descending})
	}
	return sel
}

// browse runs the selection when one was asked for.
func (s *Server) browse(ctx context.Context, sess *session.Session, frameID int, expr string, b *browseArgs, o inspect.Options) (*inspect.Page, error) {
	if !b.wanted() {
		return nil, nil
	}
	sel := b.selection()
	sel.Count = o.Compute // a Spark page's totals are a job of their own: counted on request
	r, err := inspect.Browse(ctx, sess, frameID, expr, sel, o)
	if err != nil {
		return nil, err
	}
	return r.Page, nil
}

// pageText is the text of a page answer: the summary, every problem the
// inspector found, what the statistics cover and their lines, then the
// page's table.
func pageText(res *inspect.Result, page *inspect.Page) string {
	var b strings.Builder
	b.WriteString(res.Summary + "\n")
	for _, l := range inspect.Problems(res) {
		b.WriteString(l + "\n")
	}
	if st := res.Statistics; st != nil && len(st.Columns) > 0 {
		scope := []string{}
		if st.ColumnScope != "" {
			scope = append(scope, "columns "+st.ColumnScope)
		}
		if st.Rows != "" {
			scope = append(scope, "rows "+st.Rows)
		}
		if len(scope) == 0 {
			scope = append(scope, "all rows and columns")
		}
		fmt.Fprintf(&b, "statistics of %s:\n", strings.Join(scope, ", "))
		for _, c := range st.Columns {
			fmt.Fprintf(&b, "- %s\n", inspect.StatLine(c))
		}
	}
	b.WriteString(inspect.FormatPage(page))
	return b.String()
}
