// Tests of real torch tensors and xarray values (Debian's python3-torch and
// python3-xarray) through pyHarness: the cases shared with the real-debugpy
// tests (libs_debugpy_test.go), each with a golden file, and tui/markdown
// goldens for a tensor, a DataArray and a Dataset.

package inspect

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
)

// libsFixture holds the values of libCases (testdata/python/tensors.py).
const libsFixture = "../testdata/python/tensors.py"

var libCases = []inspectCase{
	// torch
	{name: "tensor_requires_grad", expr: "grad", opts: full()},
	{name: "tensor_row", expr: "grad[1]", opts: full()},
	{name: "tensor_nan_inf", expr: "nan_t", opts: full()},
	{name: "tensor_0d", expr: "scalar_t", opts: full()},
	{name: "tensor_empty", expr: "empty_t", opts: full()},
	{name: "tensor_transposed", expr: "transposed", opts: full()},
	{name: "tensor_strided", expr: "strided", opts: full()},
	{name: "tensor_int64", expr: "int_t", opts: full()},
	{name: "tensor_bool", expr: "bool_t", opts: full()},
	{name: "tensor_bfloat16", expr: "bf16", opts: full()},
	{name: "tensor_2m", expr: "big_t", opts: full()},
	{name: "tensor_12m_sampled", expr: "huge_t", opts: full()},
	{name: "tensor_sparse", expr: "sparse_t", opts: full()},
	{name: "tensor_meta_device", expr: "meta_t", opts: full()},
	{name: "tensor_parameter", expr: "param", opts: full()},
	{name: "tensor_grad_set", expr: "w", opts: full()},
	{name: "tensor_grad_fn", expr: "out", opts: full()},
	{name: "tensor_complex", expr: "cplx_t", opts: full()},
	{name: "tensor_quantized", expr: "quant_t", opts: full()},
	{name: "tensor_sparse_csr", expr: "csr_t", opts: full()},
	{name: "model", expr: "model", opts: full()},
	{name: "model_state_dict", expr: "state", opts: full()},
	{name: "model_meta", expr: "meta_model", opts: full()},
	{name: "model_layer", expr: "model[3]", opts: full()},
	{name: "error_tensor_index", expr: "grad[5]", errCode: errcode.VariableNotFound},
	// xarray
	{name: "dataarray", expr: "da", opts: full()},
	{name: "dataarray_lazy", expr: "lazy_da", opts: full()},
	{name: "dataarray_item", expr: "ds['rain']", opts: full()},
	{name: "dataset", expr: "ds", opts: full()},
	{name: "dataset_lazy", expr: "lazy_ds", opts: full()},
	{name: "error_dataset_missing", expr: "ds['nope']", errCode: errcode.VariableNotFound},
}

func TestProbeLibraryGoldens(t *testing.T) {
	testpython.Require(t, "torch")
	h := startHarness(t, libsFixture)
	cases := libCases
	// The fixture leaves the xarray values out without xarray and dask
	// (make test-probe PYTHON=… elsewhere than Debian): so do the cases.
	has, err := h.EvaluateProbe(context.Background(), EvalRequest{Expression: "str(all(__import__('importlib.util').util.find_spec(m) is not None for m in ('xarray', 'dask')))", RawString: true})
	if err != nil {
		t.Fatal(err)
	}
	if has != "True" {
		t.Logf("%s has no xarray and dask: the DataArray and Dataset cases are not run", python)
		cases = slices.DeleteFunc(slices.Clone(libCases), func(c inspectCase) bool { return strings.HasPrefix(c.name, "data") })
	}
	runCaseList(t, h, 0, "debugpy", cases)
}

// TestFormatsLibraries: tui (60 and 100 wide) and markdown goldens of a
// tensor, a DataArray and a Dataset; every tui line has the exact width.
func TestFormatsLibraries(t *testing.T) {
	testpython.Require(t, "torch")
	h := startHarness(t, libsFixture)
	for _, expr := range []string{"nan_t", "da", "ds"} {
		res, err := Inspect(context.Background(), h, 0, expr, full())
		if err != nil {
			t.Fatal(err)
		}
		for _, width := range []int{60, 100} {
			out, err := Format(res, "tui", width)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n != width {
					t.Fatalf("%s width %d: line %d is %d wide: %q", expr, width, i, n, l)
				}
			}
			checkTextGolden(t, expr+"_"+itoa(int64(width))+".tui.txt", out)
		}
		md, err := Format(res, "markdown", 100)
		if err != nil {
			t.Fatal(err)
		}
		checkTextGolden(t, expr+"_100.md", md)
	}
}
