# big.py: values too large for one MCP response (a dict of dicts of long
# strings, a 300 KB string, a 1000-column DataFrame), for the size-cap and
# memory-budget tests.
import numpy as np
import pandas as pd


def main():
    blobs = {f"k{i:02d}": {f"f{j:02d}": "x" * 300 for j in range(60)} for i in range(60)}
    text = "y" * 300000
    wide = pd.DataFrame(np.arange(3000.0).reshape(3, 1000), columns=[f"column_{i:04d}" for i in range(1000)])
    print("ready", len(blobs), len(text), wide.shape)  # line 12: breakpoint
    return blobs, text, wide


main()
