# Fixture for the editor channel tests: a DataFrame to hover, then a long
# sleep so the session is "running" after continue.
import os
import time

import pandas as pd

pid = os.getpid()
df = pd.DataFrame({"price": [1.5, 2.5, None, 4.0], "city": ["Paris", "Lyon", "Nice", "Paris"]})
total = float(df["price"].sum())
time.sleep(120)
print(total)
