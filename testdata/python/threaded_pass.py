"""A frame past the Python probe's 1M cells (order.py _PARALLEL_CELLS), a
strided block under pandas before 3, for
TestDebugpyThreadedBlockPass (inspect/threaded_pass_test.go)."""
import numpy as np
import pandas as pd


def main():
    rng = np.random.default_rng(5)
    wide = pd.DataFrame(rng.standard_normal((60000, 24)), columns=["c%d" % i for i in range(24)])
    wide.iloc[::97, 3] = np.nan
    print(wide.shape)  # BREAK here


main()
