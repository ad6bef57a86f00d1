"""debug_diff of values (server/mcp/valdiff_test.go): a stateful object
whose dict and counter change between two stops in the same method, and a
small DataFrame and array whose cells change."""
import numpy as np
import pandas as pd


class Totals:
    def __init__(self):
        self.by_region = {"north": 0.0, "south": 0.0}
        self.rows_seen = 0
        self.tags = ["a"]

    def add(self, rows):
        for region, amount in rows:
            self.by_region[region] = round(self.by_region.get(region, 0.0) + amount, 2)
            self.rows_seen += 1
        if self.rows_seen > 20:
            self.tags.append("big")
        return self.rows_seen  # STOP


def main():
    t = Totals()
    # NOT_CODE: debugpy moves a breakpoint set here

    prices = pd.DataFrame({"item": ["a", "b", "c"], "price": [1.5, 2.0, 3.25]})
    grid = np.arange(6.0).reshape(2, 3)
    t.add([("north", 15.43)] * 19)  # 19 rows: north 293.17
    prices.loc[1, "price"] = 9.75
    grid[1, 2] = -1.0
    t.add([("north", 8.5)] * 24 + [("west", 1.0)])
    print(t.rows_seen, len(prices), grid.sum())


main()
