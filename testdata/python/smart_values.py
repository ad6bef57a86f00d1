"""A frame with three DataFrames, a Series, an array and twenty other
locals: dapscope's smart values in the editor's views (tests, benchmark)."""
import numpy as np
import pandas as pd


def report():
    sales = pd.DataFrame({"city": ["Nice", "Lyon", "Paris", "Lille"] * 125,
                          "price": [10.5, None, 7.25, 3.0] * 125,
                          "qty": list(range(500))})
    stock = pd.DataFrame({"sku": ["a", "b", "c"], "left": [1, 2, 3]})
    empty = pd.DataFrame()
    prices = sales["price"]
    temps = np.linspace(7.8125, 31.66, 1000)
    temps[::50] = np.nan
    v0, v1, v2, v3, v4 = 0, 1, 2, 3, 4
    s0, s1, s2, s3, s4 = "a", "b", "c", "d", "e"
    l0, l1, l2, l3, l4 = [0], [1], [2], [3], [4]
    d0, d1, d2, d3, d4 = {0: 0}, {1: 1}, {2: 2}, {3: 3}, {4: 4}
    return len(sales) + len(stock) + len(empty)  # BREAK


if __name__ == "__main__":
    report()
