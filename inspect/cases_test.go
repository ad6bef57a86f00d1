// This file lists the inspection cases shared by the harness tests (plain
// python3) and the real-debugpy tests: each has a golden file in
// testdata/golden/<name>.json.

package inspect

import (
	"bytes"

	"github.com/dapscope/dapscope/errcode"
)

type inspectCase struct {
	name    string // golden file name
	expr    string
	opts    Options
	errCode errcode.Code // expected *errcode.Error code, "" for a result
	only    string       // "", "harness" or "debugpy"
}

// full: goldens must not depend on machine speed, so they get the largest
// budget (10 s); the budget itself is tested separately.
func full() Options { return Options{Timeout: 10, RequestTimeout: 60} }

func withRows(o Options, rows int) Options { o.MaxPreviewRows = rows; return o }

var inspectCases = []inspectCase{
	// pandas
	{name: "dataframe", expr: "df", opts: full()},
	{name: "dataframe_mixed", expr: "mixed", opts: full()},
	{name: "dataframe_empty", expr: "empty_df", opts: full()},
	{name: "dataframe_empty_columns", expr: "empty_cols", opts: full()},
	{name: "dataframe_multiindex", expr: "multi", opts: full()},
	{name: "dataframe_nan_inf", expr: "nan_inf", opts: full()},
	{name: "dataframe_duplicate_columns", expr: "dup_cols", opts: full()},
	{name: "dataframe_1000_columns", expr: "wide", opts: full()},
	{name: "dataframe_1m_rows", expr: "big_df", opts: full()},
	{name: "dataframe_long_cell", expr: "long_cell", opts: full()},
	{name: "dataframe_rows_2", expr: "df", opts: withRows(full(), 2)},
	{name: "dataframe_no_stats", expr: "df", opts: Options{Timeout: 10, IncludeStatistics: Bool(false)}},
	{name: "dataframe_deep_memory", expr: "mixed", opts: Options{Timeout: 10, DeepMemory: true}},
	{name: "dataframe_items_rows_1", expr: "multi", opts: Options{Timeout: 10, MaxPreviewRows: 1, MaxPreviewItems: 1}},
	{name: "series", expr: "series", opts: full()},
	{name: "series_str", expr: "str_series", opts: full()},
	{name: "series_column", expr: "df['c1']", opts: full()},
	// numpy
	{name: "ndarray_2d", expr: "arr", opts: full()},
	{name: "ndarray_1m", expr: "arr1m", opts: full()},
	{name: "ndarray_3d", expr: "arr3d", opts: full()},
	{name: "ndarray_0d", expr: "arr0d", opts: full()},
	{name: "ndarray_bool", expr: "bool_arr", opts: full()},
	{name: "ndarray_complex", expr: "cplx_arr", opts: full()},
	{name: "ndarray_datetime", expr: "dt_arr", opts: full()},
	{name: "ndarray_object", expr: "obj_arr", opts: full()},
	{name: "ndarray_masked", expr: "masked", opts: full()},
	{name: "ndarray_structured", expr: "structured", opts: full()},
	{name: "ndarray_nan_inf", expr: "nan_arr", opts: full()},
	{name: "ndarray_12m_sampled", expr: "huge", opts: full()},
	{name: "ndarray_row", expr: "arr[1]", opts: full()},
	{name: "numpy_scalar", expr: "scalar_np", opts: full()},
	// containers
	{name: "dict", expr: "data", opts: full()},
	{name: "dict_item", expr: "data['train']", opts: full()},
	{name: "dict_1k", expr: "big_dict", opts: full()},
	{name: "list_100", expr: "items", opts: full()},
	{name: "list_nested", expr: "nested", opts: full()},
	{name: "list_selfref", expr: "selfref", opts: full()},
	{name: "dict_selfref", expr: "selfdict", opts: full()},
	{name: "tuple", expr: "tup", opts: full()},
	{name: "set", expr: "st", opts: full()},
	{name: "frozenset", expr: "fs", opts: full()},
	{name: "deque", expr: "dq", opts: full()},
	{name: "defaultdict", expr: "dd", opts: full()},
	// text and scalars
	{name: "str_long", expr: "text", opts: full()},
	{name: "str_short", expr: "short_text", opts: full()},
	{name: "bytes", expr: "raw", opts: full()},
	{name: "int_big", expr: "number", opts: full()},
	{name: "float", expr: "ratio", opts: full()},
	{name: "float_nan", expr: "not_a_number", opts: full()},
	{name: "bool", expr: "flag", opts: full()},
	{name: "none", expr: "nothing", opts: full()},
	{name: "complex", expr: "cplx", opts: full()},
	{name: "global", expr: "MODULE_CONSTANT", opts: full()},
	// objects
	{name: "dataclass", expr: "point", opts: full()},
	{name: "namedtuple", expr: "pair", opts: full()},
	{name: "object_plain", expr: "plain", opts: full()},
	{name: "object_bad_repr", expr: "bad", opts: full()},
	{name: "object_slots", expr: "slotted", opts: full()},
	{name: "callable", expr: "func", opts: full()},
	{name: "class", expr: "klass", opts: full()},
	{name: "path_attr_item", expr: "plain.cache['train']", opts: full()},
	{name: "path_negative_index", expr: "obj.items[-1]", opts: full()},
	// errors
	{name: "error_not_found", expr: "nope", errCode: errcode.VariableNotFound},
	{name: "error_no_attribute", expr: "plain.nope", errCode: errcode.VariableNotFound},
	{name: "error_index", expr: "items[500]", errCode: errcode.VariableNotFound},
	{name: "error_missing_key", expr: "dd['missing']", errCode: errcode.VariableNotFound},
	{name: "error_missing_column", expr: "df['zz']", errCode: errcode.VariableNotFound},
	{name: "error_not_subscriptable", expr: "ratio[0]", errCode: errcode.InvalidExpression},
	{name: "error_call", expr: "df.head()", errCode: errcode.InvalidExpression},
	{name: "error_operator", expr: "a + b", errCode: errcode.InvalidExpression},
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
