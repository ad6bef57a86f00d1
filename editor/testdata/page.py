# Fixture for dapscope/page: a 2000-row DataFrame with nulls, browsed at the
# first stop; the next line changes the prices in place, so the second stop
# must not reuse the first stop's cached order.
import time

import pandas as pd

n = 2000
df = pd.DataFrame({
    "price": [float((i * 37) % 101) if i % 97 else None for i in range(n)],
    "qty": [i % 7 for i in range(n)],
    "city": [("Paris", "Lyon", "Nice")[i % 3] for i in range(n)],
})
empty = df.iloc[:0]  # an empty table: its page is rows [] (issue #28.7)
df["price"] = (df["price"] * -1).where(df.index % 2 == 0, df["price"])  # BREAKPOINT
shown = len(df)
time.sleep(120)
print(shown)
