"""A loop that writes one cell of a DataFrame in place between two stops
(its summary stays the same) and leaves another alone: the Variables
view's smart values mark the written one "changed in place" by its
fingerprint (server/session/smartvalues_edit_test.go)."""
import numpy as np
import pandas as pd


def work():
    prices = pd.DataFrame({"price": np.arange(1000.0), "qty": np.arange(1000)})
    stock = pd.DataFrame({"left": np.arange(10)})
    total = 0
    for i in range(4):
        total += i  # BREAK
        if i in (0, 2):
            prices.iloc[5, 0] = 100.0 + i
    return total


if __name__ == "__main__":
    work()
