// browse.go: the row-browsing arguments of debug_inspect_variable —
// columns, rows, sort, filter — computed in the debuggee (inspect.Browse)
// and returned as a page beside the summary, with inspect.FormatPage's
// table as text.

package mcp

import (
	"context"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// browseArgs select part of a table (DataFrame, Series, 1-D/2-D array,
// list of records); any of them returns `page` beside the summary.
type browseArgs struct {
	Columns []any     `json:"columns,omitempty" desc:"names, globs, positions"`
	Rows    *rowsArg  `json:"rows,omitempty"`
	Sort    []sortArg `json:"sort,omitempty"`
	Filter  string    `json:"filter,omitempty" desc:"DataFrame.query syntax"`
}

type rowsArg struct {
	Offset int64 `json:"offset,omitempty"`
	Limit  int   `json:"limit,omitempty" desc:"max 1000"`
}

type sortArg struct {
	Column     any  `json:"column" mcp:"required"`
	Descending bool `json:"descending,omitempty"`
}

func (b *browseArgs) wanted() bool {
	return len(b.Columns) > 0 || b.Rows != nil || len(b.Sort) > 0 || b.Filter != ""
}

func (b *browseArgs) selection() inspect.Selection {
	sel := inspect.Selection{Columns: b.Columns, Filter: b.Filter}
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
	r, err := inspect.Browse(ctx, sess, frameID, expr, b.selection(), o)
	if err != nil {
		return nil, err
	}
	return r.Page, nil
}
