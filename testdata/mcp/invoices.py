# invoices.py: an invoice report with two planted bugs, for the tests of
# what an agent reads (issue 26): a page of 51 invoice lines sent twice (51
# duplicate rows, a non-unique index) and 93 lines without a unit price
# (nulls in unit_price, amount and amount_eur: 279 null cells, 93 rows).
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 4000
lines = pd.DataFrame({
    "order_id": np.arange(100000, 100000 + n),
    "customer": rng.choice(["acme", "globex", "initech", "umbrella", "hooli"], n),
    "region": rng.choice(["north", "south", "east", "west"], n),
    "sku": ["SKU-%04d" % (i % 250) for i in range(n)],
    "qty": rng.integers(1, 20, n),
    "unit_price": rng.uniform(5, 500, n).round(2),
    "currency": rng.choice(["EUR", "USD"], n),
})
lines.loc[rng.choice(n, 93, replace=False), "unit_price"] = np.nan  # bug 2
lines["amount"] = lines["qty"] * lines["unit_price"]
lines["amount_eur"] = np.where(lines["currency"] == "USD", lines["amount"] * 0.92, lines["amount"])
lines = pd.concat([lines, lines.iloc[1000:1051]])  # bug 1: a page sent twice
totals = lines.groupby(["region", "customer"])["amount_eur"].agg(["count", "sum"])
by_key = totals.to_dict()
report = "\n".join("%-6s %-9s %5d %12.2f" % (r, c, k, s) for (r, c), (k, s) in totals.iterrows())
report = "invoice report\nregion customer  count          sum\n" + report
daily = pd.Series([757512.3, 989366.0, 812345.25], name="daily_total")
print(len(lines), "lines")  # STOP
lines.loc[100000 + 5 - 100000]  # builds the index's lookup table
print(report.count("\n"), "report lines")  # STEP
