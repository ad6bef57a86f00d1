// cmd_inspectflags.go: the inspection flags `dapscope inspect` and
// `dapscope kernel inspect` share (rows, columns, sort, filter, items,
// width, timeout, statistics, byte budget, deep memory, precision), read
// into the inspector's options, a selection and a tui width.

package main

import (
	"errors"
	"flag"
	"os"
	"strconv"

	"github.com/dapscope/dapscope/inspect"
)

type inspectFlags struct {
	rows      rowsFlag
	columns   *string
	sortBy    *string
	filter    *string
	items     *int
	width     *int
	budget    *float64
	noStats   *bool
	maxBytes  *int
	deep      *bool
	compute   *bool
	precision *string
}

// register adds the flags to fs; filterHelp says what a filter is there.
func (f *inspectFlags) register(fs *flag.FlagSet, filterHelp string) {
	fs.Var(&f.rows, "rows", "N: preview rows (1..100, default 5); OFFSET:LIMIT: that window of the table's rows (limit ≤ 1000)")
	f.columns = fs.String("columns", "", "table columns to show: names, globs or positions, comma-separated (e.g. price,feature_*,3)")
	f.sortBy = fs.String("sort", "", "sort the table's rows: columns, comma-separated, - for descending (e.g. -price,city)")
	f.filter = fs.String("filter", "", filterHelp)
	f.items = fs.Int("items", 0, "preview items of containers (1..100, default 10)")
	f.width = fs.Int("width", 0, "tui width (default: $COLUMNS or 100)")
	f.budget = fs.Float64("timeout", 0, "probe time budget per expression in seconds (0.1..10, default 2)")
	f.noStats = fs.Bool("no-stats", false, "skip statistics")
	f.maxBytes = fs.Int("max-bytes", 0, "fit each JSON result into this many bytes (≥ 1024), dropping tail rows, preview rows, histograms, quantiles, then columns; the result's budget says what went")
	f.deep = fs.Bool("deep-memory", false, "measure object memory deeply")
	f.compute = fs.Bool("compute", false, "run what a lazy value defers: collect a polars LazyFrame, count a pyarrow Dataset's rows or a Spark page's (within --timeout)")
	f.precision = fs.String("precision", "short", "floats in statistics and preview: short (4 significant digits) or full (exact)")
}

// read checks the flags and returns the options (in format), the
// selection (nil without one) and the tui width ($COLUMNS or 100 unless
// given).
func (f *inspectFlags) read(format string) (inspect.Options, *inspect.Selection, int, error) {
	opts := inspect.Options{MaxPreviewRows: f.rows.preview, MaxPreviewItems: *f.items, Timeout: *f.budget, Format: format,
		DeepMemory: *f.deep, Compute: *f.compute, Precision: *f.precision}
	if *f.noStats {
		opts.IncludeStatistics = inspect.Bool(false)
	}
	if *f.maxBytes != 0 && *f.maxBytes < 1024 {
		return opts, nil, 0, errors.New("--max-bytes must be at least 1024")
	}
	if err := opts.Normalize(); err != nil {
		return opts, nil, 0, err
	}
	var sel *inspect.Selection
	if f.rows.window != nil || *f.columns != "" || *f.sortBy != "" || *f.filter != "" {
		sel = &inspect.Selection{Rows: f.rows.window, Columns: inspect.ParseColumns(*f.columns), Sort: inspect.ParseSortKeys(*f.sortBy), Filter: *f.filter,
			Count: *f.compute} // a Spark page's totals are a job of their own: counted on request
		if err := sel.Validate(); err != nil {
			return opts, nil, 0, err
		}
	}
	width := *f.width
	if width <= 0 {
		width = 100
		if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 40 {
			width = n
		}
	}
	return opts, sel, width, nil
}
