// This file holds Options, the knobs of one inspection, with their defaults
// and allowed ranges.

package inspect

import (
	"fmt"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

// Defaults and limits of Options.
const (
	DefaultPreviewRows    = 5
	DefaultPreviewItems   = 10
	DefaultTimeout        = 2.0  // seconds of budget inside the probe
	DefaultRequestTimeout = 10.0 // seconds for the whole request, sidecar side
	MinTimeout            = 0.1
	MaxTimeout            = 10.0
	MaxPreview            = 100
	// MaxResultBytes bounds the serialized (JSON) result.
	MaxResultBytes = 100 * 1024
)

// Options tune one inspection. The zero value means "all defaults".
type Options struct {
	// MaxPreviewRows: head rows of tables and Series (tail rows are about half
	// as many). 1..100, default 5.
	MaxPreviewRows int `json:"max_preview_rows,omitempty"`
	// MaxPreviewItems: items of containers, attributes of objects, edge items
	// of arrays. 1..100, default 10.
	MaxPreviewItems int `json:"max_preview_items,omitempty"`
	// IncludeStatistics: numeric/categorical statistics (default true).
	IncludeStatistics *bool `json:"include_statistics,omitempty"`
	// DeepMemory: measure object memory deeply (slower); otherwise memory is
	// shallow and flagged memory_estimated when that underestimates.
	DeepMemory bool `json:"deep_memory,omitempty"`
	// Timeout is the probe's time budget in seconds (0.1..10, default 2): cheap
	// facts first, what does not fit is listed in Result.TimedOut.
	Timeout float64 `json:"timeout,omitempty"`
	// Format is the rendering for Format(): json (default), tui or markdown.
	Format string `json:"format,omitempty"`
	// RequestTimeout bounds the whole request in seconds (default 10, at least
	// Timeout+1); past it Inspect answers INSPECTION_TIMEOUT.
	RequestTimeout float64 `json:"request_timeout,omitempty"`
	// Reference asks for Result.VariablesReference on debugpy, which costs a
	// second evaluate (the Delve fallback always has it).
	Reference bool `json:"variables_reference,omitempty"`
	// Precision of floats from the probe: "short" (default: 4 significant
	// digits in statistics and preview cells, 6 in browsed pages) or "full"
	// (every float exact).
	Precision string `json:"precision,omitempty"`
	// StatsOf narrows a table's statistics to a selection's columns and
	// filtered rows (its Rows and Sort are not used): the structure still
	// describes the whole table, the statistics say what they cover
	// (Statistics.Rows, Statistics.ColumnScope). Python probe only.
	StatsOf *Selection `json:"stats_of,omitempty"`
	// Compute lets an inspection run what a lazy value defers: a polars
	// LazyFrame is collected, a pyarrow Dataset's rows counted and its
	// fragments listed (bounded by Timeout; the result names what ran).
	// Without it a lazy value gives its schema and plan only. Python probe.
	Compute bool `json:"compute,omitempty"`
}

// Precisions.
const (
	PrecisionShort = "short"
	PrecisionFull  = "full"
)

// Bool returns a pointer to b, for Options.IncludeStatistics.
func Bool(b bool) *bool { return &b }

// Normalize fills defaults and checks ranges; the error is an *errcode.Error with
// code INVALID_ARGUMENT.
func (o *Options) Normalize() error {
	bad := func(format string, args ...any) error {
		return &errcode.Error{Code: errcode.InvalidArgument, Message: fmt.Sprintf(format, args...)}
	}
	if o.MaxPreviewRows == 0 {
		o.MaxPreviewRows = DefaultPreviewRows
	}
	if o.MaxPreviewRows < 1 || o.MaxPreviewRows > MaxPreview {
		return bad("max_preview_rows must be 1..%d, got %d", MaxPreview, o.MaxPreviewRows)
	}
	if o.MaxPreviewItems == 0 {
		o.MaxPreviewItems = DefaultPreviewItems
	}
	if o.MaxPreviewItems < 1 || o.MaxPreviewItems > MaxPreview {
		return bad("max_preview_items must be 1..%d, got %d", MaxPreview, o.MaxPreviewItems)
	}
	if o.IncludeStatistics == nil {
		o.IncludeStatistics = Bool(true)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Timeout < MinTimeout || o.Timeout > MaxTimeout {
		return bad("timeout must be %g..%g seconds, got %g", MinTimeout, MaxTimeout, o.Timeout)
	}
	switch o.Format {
	case "":
		o.Format = "json"
	case "json", "tui", "markdown":
	default:
		return bad("format must be json, tui or markdown, got %q", o.Format)
	}
	switch o.Precision {
	case "":
		o.Precision = PrecisionShort
	case PrecisionShort, PrecisionFull:
	default:
		return bad("precision must be short or full, got %q", o.Precision)
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = max(DefaultRequestTimeout, o.Timeout+1)
	}
	if o.RequestTimeout < 0 || o.RequestTimeout > 600 {
		return bad("request_timeout must be 0..600 seconds, got %g", o.RequestTimeout)
	}
	return nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
