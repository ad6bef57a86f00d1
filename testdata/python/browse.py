"""Tables to browse by rows: sort, filter, columns, pages; the test
compares every page with pandas' own answer in the same debuggee."""
import numpy as np
import pandas as pd


def tables():
    rng = np.random.default_rng(11)
    n = 5000
    df = pd.DataFrame({
        "price": np.round(rng.normal(50, 20, n), 2),
        "qty": rng.integers(0, 5, n),
        "city": rng.choice(["Nice", "Lyon", "Paris"], n),
        "when": pd.date_range("2024-01-01", periods=n, freq="min", tz="Europe/Paris"),
        "empty": [None] * n,
    })
    df.loc[::7, "price"] = np.nan
    df["cat"] = pd.Categorical(rng.choice(["lo", "hi"], n))
    dup = pd.DataFrame([[1, 2], [0, 3], [1, 1]], columns=["a", "a"])
    multi = pd.DataFrame({"v": [3, 1, 2, 1]}, index=pd.MultiIndex.from_tuples([("x", 1), ("x", 2), ("y", 1), ("y", 2)]))
    grid = np.arange(20).reshape(10, 2)[::-1]
    records = [{"id": i, "score": (i * 37) % 11, "tag": "t%d" % (i % 3)} for i in range(50)]
    feature_0, feature_1 = 1, 2
    for rnd in range(2):
        feature_1 = rnd  # BREAK (twice: a new stop drops the cached orders)
    return df, dup, multi, grid, records


if __name__ == "__main__":
    tables()
