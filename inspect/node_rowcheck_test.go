// node_rowcheck_test.go: a browse checks for getters and proxies only what
// a page reads (rowcheck.js, issue #38), and never runs one: a getter or a
// Proxy on a row or a column the page does not read changes nothing; one
// the page reads shows as a placeholder in that cell or row only; a sort or
// filter that reads it over every row is refused. The fixture's counter
// (testdata/node/hostile_probe.js) stays 0 throughout.

package inspect

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestJSBrowseChecksWhatAPageReads(t *testing.T) {
	js := startJSHarness(t, hostileFixture)
	ctx := context.Background()
	page := func(t *testing.T, name string, sel Selection) *Page {
		t.Helper()
		p, err := Browse(ctx, js, 0, name, sel, Options{Timeout: 10})
		if err != nil {
			t.Fatalf("browse %s %+v: %v", name, sel, err)
		}
		if h := hostileHits(t, js); h != "0" {
			t.Fatalf("browse %s %+v ran the program's code %s times", name, sel, h)
		}
		if p.Page.Kind != "records" {
			t.Fatalf("%s is browsed as %s, not records", name, p.Page.Kind)
		}
		return p.Page
	}
	refused := func(t *testing.T, name string, sel Selection, code errcode.Code, why string) {
		t.Helper()
		_, err := Browse(ctx, js, 0, name, sel, Options{Timeout: 10})
		if e := errcode.As(err); e == nil || e.Code != code || !strings.Contains(e.Message, why) {
			t.Fatalf("browse %s %+v: want %s (%s), got %v", name, sel, code, why, err)
		}
		if h := hostileHits(t, js); h != "0" {
			t.Fatalf("browse %s %+v ran the program's code %s times", name, sel, h)
		}
	}
	cell := func(p *Page, pos int64, col string) string {
		for r, at := range p.Positions {
			if at != pos {
				continue
			}
			for k, c := range p.Columns {
				if c.Name == col {
					return fmt.Sprint(p.Rows[r][k])
				}
			}
		}
		t.Fatalf("no cell %d/%s in %v", pos, col, p.Positions)
		return ""
	}
	rows := func(off, n int64) *RowWindow { return &RowWindow{Offset: off, Limit: int(n)} }

	// ownGetter: row 1237's qty is a getter; protoGetter: row 2351 lacks
	// qty, which its class's prototype has a getter for.
	for _, c := range []struct {
		name string
		row  int64
	}{{"ownGetter", 1237}, {"protoGetter", 2351}} {
		t.Run(c.name, func(t *testing.T) {
			// not read: the getter's column left out, or its row not in the page
			p := page(t, c.name, Selection{Columns: []any{"id", "note"}, Rows: rows(c.row-5, 10)})
			if got := fmt.Sprint(p.Rows); strings.Contains(got, "<getter>") || cell(p, c.row, "id") != fmt.Sprint(c.row) {
				t.Fatalf("columns without the getter: %v", got)
			}
			p = page(t, c.name, Selection{Rows: rows(0, 100)})
			if got := fmt.Sprint(p.Rows); strings.Contains(got, "<getter>") || p.Columns[1].Dtype != "number" {
				t.Fatalf("rows without the getter: %v %v", p.Columns, got)
			}
			// a sort by another column reads only that one: no getter there
			p = page(t, c.name, Selection{Sort: []SortKey{{Column: "id", Descending: true}}, Rows: rows(4999-c.row-2, 5)})
			if cell(p, c.row, "id") != fmt.Sprint(c.row) || cell(p, c.row, "qty") != "<getter>" || cell(p, c.row-1, "qty") != fmt.Sprint((c.row-1)%17) {
				t.Fatalf("sorted by id: %v %v", p.Positions, p.Rows)
			}
			// read: that one cell is a placeholder, the rest of the row and column are values
			p = page(t, c.name, Selection{Rows: rows(c.row-5, 10)})
			if cell(p, c.row, "qty") != "<getter>" || cell(p, c.row, "note") != fmt.Sprintf("n%d", c.row%7) || cell(p, c.row+1, "qty") != fmt.Sprint((c.row+1)%17) {
				t.Fatalf("the getter's row: %v", p.Rows)
			}
			if p.Columns[1].Dtype != "number" {
				t.Fatalf("qty's dtype with a getter cell in the page: %v", p.Columns)
			}
			// read over every row: refused, and the column is a getter's from then on
			refused(t, c.name, Selection{Sort: []SortKey{{Column: "qty"}}}, errcode.InvalidArgument, "getters")
			refused(t, c.name, Selection{Filter: "qty > 2"}, errcode.InvalidExpression, "getters")
			p = page(t, c.name, Selection{Filter: `note === "n3"`, Rows: rows(0, 3)})
			if got := fmt.Sprint(p.Rows); p.Columns[1].Dtype != "getter" || got != "[[3 <getter> n3] [10 <getter> n3] [17 <getter> n3]]" {
				t.Fatalf("filtered by note after qty was found a getter's: %v %v", p.Columns, got)
			}
		})
	}

	// proxied: row 3001 is a Proxy; elementGetter: element 4003 is an accessor.
	for _, c := range []struct {
		name, text, what string
		row              int64
	}{{"proxied", "<proxy>", "a Proxy", 3001}, {"elementGetter", "<getter>", "an accessor", 4003}} {
		t.Run(c.name, func(t *testing.T) {
			p := page(t, c.name, Selection{Rows: rows(c.row-10, 10)})
			if got := fmt.Sprint(p.Rows); strings.Contains(got, "<") || cell(p, c.row-1, "qty") != fmt.Sprint((c.row-1)%17) {
				t.Fatalf("rows before %d: %v", c.row, got)
			}
			p = page(t, c.name, Selection{Rows: rows(c.row-1, 3)})
			want := fmt.Sprintf("[[%d %d n%d] [%s %s %s] [%d %d n%d]]", c.row-1, (c.row-1)%17, (c.row-1)%7, c.text, c.text, c.text, c.row+1, (c.row+1)%17, (c.row+1)%7)
			if got := fmt.Sprint(p.Rows); got != want {
				t.Fatalf("row %d: %s, want %s", c.row, got, want)
			}
			refused(t, c.name, Selection{Sort: []SortKey{{Column: "id"}}}, errcode.InvalidArgument, fmt.Sprintf("row %d is %s", c.row, c.what))
			refused(t, c.name, Selection{Filter: "id > 2"}, errcode.InvalidArgument, fmt.Sprintf("row %d is %s", c.row, c.what))
			refused(t, c.name, Selection{Filter: "$row.id > 2"}, errcode.InvalidArgument, fmt.Sprintf("row %d is %s", c.row, c.what))
		})
	}
}
