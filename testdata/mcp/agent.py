# agent.py: the MCP tests' example program. A 10-column pandas DataFrame
# changes between breakpoints (nulls filled, a column added), a threshold
# can be changed by the agent before it is used, and the program prints
# enough lines to need output paging.
import numpy as np
import pandas as pd


def clean(df):
    out = df.copy()
    out["b"] = out["b"].fillna(0.0)
    out["k"] = out["a"] * 2
    return out


def main():
    rng = np.random.default_rng(0)
    n = 50
    df = pd.DataFrame({
        "a": np.arange(n),
        "b": rng.normal(size=n),
        "c": rng.integers(0, 100, size=n),
        "d": ["x", "y"] * (n // 2),
        "e": pd.date_range("2024-01-01", periods=n, freq="D"),
        "f": rng.random(n) > 0.5,
        "g": pd.Categorical(["lo", "mid", "hi", "mid", "lo"] * (n // 5)),
        "h": rng.uniform(-1, 1, size=n),
        "i": [f"name{j}" for j in range(n)],
        "j": np.linspace(0, 1, n),
    })
    df.loc[::5, "b"] = np.nan
    threshold = 10
    print("rows", len(df))
    df = clean(df)
    total = int((df["a"] > threshold).sum())
    print("total", total)
    for i in range(120):
        print(f"line {i:03d} " + "." * 40)
    return total


if __name__ == "__main__":
    main()
