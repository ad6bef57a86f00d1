"""dapscope e2e fixture: a DataFrame `df` that gains a column two steps
after the breakpoint, so the inspection view must refresh to show it, and a
100,000-row `table` to scroll, sort and filter in the data viewer."""
import numpy as np
import pandas as pd


def main():
    rng = np.random.default_rng(7)
    df = pd.DataFrame({
        "city": rng.choice(["Paris", "Lyon", "Nice"], 500),
        "price": rng.normal(20.0, 4.0, 500).round(2),
        "qty": rng.integers(1, 10, 500),
    })
    df.loc[::50, "price"] = np.nan
    print(df.shape)  # BREAKPOINT
    df["total"] = df["price"] * df["qty"]
    print(df["total"].sum(), len(table))
    return df


def big_table(n=100_000):
    rng = np.random.default_rng(3)
    return pd.DataFrame({
        "value": rng.normal(0.0, 1.0, n).round(4),
        "group": rng.choice(["a", "b", "c"], n),
        "step": np.arange(n),
    })


# A global: the Variables view summarizes Locals at each stop within 50 ms,
# which a 100,000-row frame beside df would eat into.
table = big_table()


if __name__ == "__main__":
    main()
