"""dapscope's bundled example (`make run`): a small sales analysis with a
DataFrame, a numpy array, a dict and an object, stopped at the line marked
"inspect here"."""
import dataclasses

import numpy as np
import pandas as pd


@dataclasses.dataclass
class Model:
    name: str
    weights: np.ndarray
    learning_rate: float = 0.01
    trained: bool = False


def analyse(n_rows):
    rng = np.random.default_rng(42)
    regions = ["north", "south", "east", "west"]
    sales = pd.DataFrame({
        "date": pd.date_range("2024-01-01", periods=n_rows, freq="D"),
        "region": pd.Categorical(rng.choice(regions, n_rows)),
        "units": rng.integers(1, 50, n_rows),
        "price": rng.normal(20.0, 4.0, n_rows).round(2),
        "returned": rng.random(n_rows) < 0.05,
    })
    sales.loc[sales.sample(frac=0.02, random_state=1).index, "price"] = np.nan
    sales["revenue"] = sales["units"] * sales["price"]
    prices = sales["price"].to_numpy()
    config = {"currency": "EUR", "regions": regions, "thresholds": {"low": 10, "high": 40}, "seed": 42}
    model = Model("revenue-v1", weights=rng.standard_normal(8))
    total = float(sales["revenue"].sum())
    return total  # inspect here


def never_called():
    return "this line is never reached"  # used by the CLI test


if __name__ == "__main__":
    print("total revenue: %.2f" % analyse(1000))
