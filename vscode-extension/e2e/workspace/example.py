"""dapscope e2e fixture: a DataFrame `df` that gains a column two steps
after the breakpoint, so the inspection view must refresh to show it."""
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
    print(df["total"].sum())
    return df


if __name__ == "__main__":
    main()
