"""Stand-ins for what the build machine cannot run for real: a torch tensor
on a GPU (real CPU tensors are tested with Debian's python3-torch in
tensors.py; there is no GPU here), and polars and pyarrow (not packaged in
Debian). Minimal classes registered under those module names, with the
attributes the probe reads. They test detection by module/class name and
field extraction, not the real libraries."""
import os
import sys
import types

import numpy as np


def _module(name, **classes):
    m = types.ModuleType(name)
    for cname, cls in classes.items():
        cls.__module__ = name
        cls.__qualname__ = cname
        cls.__name__ = cname
        setattr(m, cname, cls)
    sys.modules[name] = m
    return m


class Tensor:
    def __init__(self, data, device="cpu", requires_grad=False):
        self._a = np.asarray(data, dtype=np.float32)
        self.device = device
        self.requires_grad = requires_grad
        self.dtype = "torch.float32"
        self.shape = self._a.shape

    def dim(self):
        return self._a.ndim

    def numel(self):
        return self._a.size

    def element_size(self):
        return self._a.itemsize

    def detach(self):
        return self

    def numpy(self):
        if self.device != "cpu":
            raise RuntimeError("can't convert cuda tensor to numpy")
        return self._a


class PlDataFrame:
    def __init__(self, cols):
        self._c = cols
        self.columns = list(cols)
        self.dtypes = ["Int64" if all(isinstance(v, int) for v in c if v is not None) else "Utf8" for c in cols.values()]
        self.height = len(next(iter(cols.values())))
        self.width = len(cols)
        self.shape = (self.height, self.width)

    def null_count(self):
        counts = tuple(sum(v is None for v in c) for c in self._c.values())
        return types.SimpleNamespace(row=lambda i: counts)

    def head(self, n):
        rows = list(zip(*self._c.values()))[:n]
        return types.SimpleNamespace(rows=lambda: rows)

    def estimated_size(self):
        return 64 * self.height * self.width


class PlSeries:
    def __init__(self, name, values):
        self.name, self._v, self.dtype = name, values, "Float64"

    def __len__(self):
        return len(self._v)

    def head(self, n):
        return types.SimpleNamespace(to_list=lambda: self._v[:n])

    def estimated_size(self):
        return 8 * len(self._v)


class Table:
    def __init__(self, cols):
        self._c = cols
        self.num_rows = len(next(iter(cols.values())))
        self.num_columns = len(cols)
        self.schema = [types.SimpleNamespace(name=k, type="int64") for k in cols]
        self.nbytes = 8 * self.num_rows * self.num_columns

    def column(self, i):
        vals = list(self._c.values())[i]
        return types.SimpleNamespace(null_count=sum(v is None for v in vals))

    def slice(self, start, n):
        keys = list(self._c)
        rows = [dict(zip(keys, r)) for r in list(zip(*self._c.values()))[start:start + n]]
        return types.SimpleNamespace(to_pylist=lambda: rows)


torch = _module("torch", Tensor=Tensor)
polars = _module("polars", DataFrame=PlDataFrame, Series=PlSeries)
pyarrow = _module("pyarrow", Table=Table)


def build():
    gpu_tensor = torch.Tensor([1.0, 2.0, 3.0], device="cuda:0")
    pl_df = polars.DataFrame({"a": [1, 2, None], "b": ["x", "y", "z"]})
    pl_series = polars.Series("s", [1.5, 2.5])
    table = pyarrow.Table({"id": [1, 2, 3], "n": [4, None, 6]})
    return locals()  # BREAK


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    build()
