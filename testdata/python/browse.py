"""Tables to browse by rows: sort, filter, columns, pages; the test
compares every page with pandas' own answer in the same debuggee. Also:
a frame with nullable and missing values (filters: unknown rows), one
with integer column labels (`0`), and a property that builds a new frame
each time it is read (the cached order must never outlive its frame)."""
import numpy as np
import pandas as pd


class Holder:
    """reads: how many frames `frame` built."""

    def __init__(self):
        self.reads = 0

    @property
    def frame(self):
        self.reads += 1
        rng = np.random.default_rng(self.reads)
        return pd.DataFrame({"x": rng.permutation(200), "y": np.arange(200)})


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
    nulls = pd.DataFrame({
        "a": [1, 2, 3, 4, 5, 6],
        "qty": pd.array([1, 6, None, 9, 7, None], dtype="Int64"),
        "price": [10.0, 12.0, 3.0, np.nan, 20.0, 14.0],
        "city": pd.array(["Nice", None, "Lyon", "Nice", "Paris", "Nice"], dtype="string"),
        "flag": pd.array([True, None, False, True, True, False], dtype="boolean"),
        "kind": pd.Categorical(["x", "y", None, "x", "y", "x"]),
    })
    ints = pd.DataFrame(np.arange(12).reshape(4, 3) % 5)  # integer column labels 0, 1, 2
    holder = Holder()
    feature_0, feature_1 = 1, 2
    for rnd in range(2):
        feature_1 = rnd  # BREAK (twice: a new stop drops the cached orders)
    return df, dup, multi, grid, records


if __name__ == "__main__":
    tables()
