"""50 values of 1M cells each for the fingerprint benchmark
(inspect/probe_bench_test.go): 25 float64 arrays, 15 DataFrames of
100,000×10 numbers, 10 Series (ints). Run through pyHarness: build()
gives the names."""
import numpy as np
import pandas as pd


def build():
    rng = np.random.default_rng(1)
    out = {}
    for i in range(25):
        out["arr%02d" % i] = rng.standard_normal(1_000_000)
    for i in range(15):
        out["df%02d" % i] = pd.DataFrame(rng.standard_normal((100_000, 10)), columns=["c%d" % j for j in range(10)])
    for i in range(10):
        out["s%02d" % i] = pd.Series(rng.integers(0, 1000, 1_000_000))
    return out
