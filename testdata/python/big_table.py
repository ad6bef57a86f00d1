"""A big table to browse: ROWS rows (argv[1], default 10,000,000) × 10
columns — an id, six float columns, an int column, a string column and a
float column with 10% nulls. expected() is pandas' own answer for a page,
which the tests compare with the sidecar's pages."""
import sys

import numpy as np
import pandas as pd

_ORDERS = {}


def build(rows):
    rng = np.random.default_rng(12)
    cols = {"id": np.arange(rows)}
    for c in "abcdef":
        cols[c] = rng.standard_normal(rows)
    cols["qty"] = rng.integers(0, 100, rows)
    cols["city"] = np.array(["Nice", "Lyon", "Paris", "Lille", "Brest"], dtype=object)[rng.integers(0, 5, rows)]
    price = np.round(rng.gamma(2.0, 20.0, rows), 2)
    price[rng.random(rows) < 0.1] = np.nan
    cols["price"] = price
    return pd.DataFrame(cols)


def expected(df, column, descending, offset, limit, query=None):
    """Positions of rows offset..offset+limit of df (filtered by query) sorted
    by column (a name or a list of names), stable, nulls last, as pandas
    computes them (cached)."""
    key = (repr(column), descending, query)
    if key not in _ORDERS:
        view = df.query(query) if query else df
        if column is not None:
            view = view.sort_values(column, ascending=not descending, kind="stable", na_position="last")
        _ORDERS[key] = view.index.to_numpy()  # a RangeIndex: labels are positions
    return [int(x) for x in _ORDERS[key][offset:offset + limit]]


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    df = build(rows)
    print("built", len(df))  # BREAK
    return df


if __name__ == "__main__":
    main()
