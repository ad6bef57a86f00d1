"""Stand-ins for what the build machine cannot run for real: a torch tensor
on a GPU (real CPU tensors are tested with Debian's python3-torch in
tensors.py; there is no GPU here). A minimal class registered under that
module name, with the attributes the probe reads. (polars and pyarrow are
tested for real in the .venv leg: inspect/engines_parity_test.go.)"""
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


torch = _module("torch", Tensor=Tensor)


def build():
    gpu_tensor = torch.Tensor([1.0, 2.0, 3.0], device="cuda:0")
    return locals()  # BREAK


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    build()
