"""Real torch tensors and xarray values for dapscope's inspection tests (from
Debian: python3-torch, python3-xarray, and python3-dask which apt installs
with python3-xarray as a recommended package): one breakpoint (the line
marked BREAK in build()). Deterministic: fixed values and seeded data only.
Outside Debian (make test-probe PYTHON=… on a machine without xarray and
dask) the xarray values are left out and only the torch ones are built."""
import os
import warnings

import numpy as np
import torch

try:
    import dask
    import dask.array
    import xarray as xr
except ImportError:  # only in another interpreter than Debian's
    xr = None

computed = []  # lazy_da's dask graph appends here if anything computes it


def _load():
    computed.append("lazy_da")
    return np.ones((2, 3))


def build():
    rng = np.random.default_rng(0)
    grad = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], requires_grad=True)
    nan_t = torch.tensor([0.0, float("nan"), 1.0, float("inf"), -float("inf"), 2.0])
    scalar_t = torch.tensor(3.5)
    empty_t = torch.zeros((0, 3))
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    transposed = base.t()
    strided = base[:, ::2]
    int_t = torch.tensor([[-3, 0, 7], [2**40, 5, 5]], dtype=torch.int64)
    bool_t = torch.tensor([True, False, True, True])
    bf16 = torch.tensor([1.5, -2.25, 3.0, 0.0], dtype=torch.bfloat16)
    big_t = torch.from_numpy(rng.standard_normal(2_000_000, dtype=np.float32))
    huge_t = torch.from_numpy(rng.standard_normal(12_000_000, dtype=np.float32)).half()
    sparse_t = torch.eye(3).to_sparse()
    meta_t = torch.empty((2, 3), device="meta")  # a real non-CPU tensor (no GPU here)
    param = torch.nn.Parameter(torch.tensor([[0.5, -0.5], [0.25, 1.0]]))
    w = torch.ones(3, requires_grad=True)
    (w * 2).sum().backward()  # w.grad is set
    out = w * 3  # computed by autograd: grad_fn MulBackward0
    cplx_t = torch.tensor([1 + 2j, -1j, 3 + 0j], dtype=torch.complex64)
    quant_t = torch.quantize_per_tensor(torch.tensor([1.0, 2.0, 3.0]), 0.1, 0, torch.quint8)
    with warnings.catch_warnings():  # "Sparse CSR tensor support is in beta state"
        warnings.simplefilter("ignore")
        csr_t = torch.eye(3).to_sparse_csr()

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.BatchNorm1d(8), torch.nn.Linear(8, 2))
    model[0].weight.requires_grad_(False)  # frozen
    with torch.no_grad():
        model[3].bias[0] = float("nan")
        model[3].weight[1, 2] = float("inf")
    model.eval()
    model[2].train()  # one submodule in training mode
    state = model.state_dict()
    meta_model = torch.nn.Linear(1000, 1000, device="meta")  # a model with no data

    if xr is not None:
        temps = np.round(rng.normal(15.0, 5.0, size=(3, 4)), 2)
        temps[1, 2] = np.nan
        da = xr.DataArray(
            temps,
            dims=("time", "city"),
            coords={"time": np.array(["2024-01-01", "2024-01-02", "2024-01-03"], dtype="datetime64[ns]"),
                    "city": ["Oslo", "Rome", "Lima", "Pune"],
                    "elevation": ("city", [23, 21, 154, 560])},
            name="temperature",
            attrs={"units": "degC"},
        )
        ds = xr.Dataset(
            {"temperature": da,
             "rain": (("time",), np.array([0.0, 2.5, np.nan])),
             "station": ("city", np.array(["a", None, "c", "d"], dtype=object))},
            attrs={"source": "test"},
        )
        lazy_da = xr.DataArray(dask.array.from_delayed(dask.delayed(_load)(), shape=(2, 3), dtype=float),
                               dims=("y", "x"), name="lazy")
        lazy_ds = xr.Dataset({"lazy": lazy_da, "rain": ds["rain"]})
    return locals()  # BREAK


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    build()
