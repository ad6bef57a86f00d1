"""A 50M-element float32 tensor (one in a thousand NaN) for the probe's
tensor benchmark (inspect/probe_bench_test.go), on the GPU when torch has
one (CUDA), else on the CPU. Run through pyHarness: build() gives the
names."""
import torch


def build():
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=dev)
    gen.manual_seed(0)
    t50m = torch.randn(50_000_000, generator=gen, device=dev)
    t50m[::1000] = float("nan")
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    return {"t50m": t50m, "dev": dev, "sync": sync}
