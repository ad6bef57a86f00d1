"""A 5000 x 301 DataFrame whose one column with nulls is the last one
(server/mcp/budget_test.go: the default 8 KB budget must name it)."""
import numpy as np
import pandas as pd


def main():
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.standard_normal((5000, 300)), columns=["f%03d" % i for i in range(300)])
    wide["label"] = np.where(rng.random(5000) < 0.33, None, "ok")
    print(wide.shape, int(wide["label"].isna().sum()))  # STOP


main()
