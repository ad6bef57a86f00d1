# A Python program for MCP agents on a bridged session (the Python
# extension's debugpy): a DataFrame, output before the stop, a step that
# changes total.
import pandas as pd

df = pd.DataFrame({"price": [1.5, 2.5, None, 4.0], "city": ["Paris", "Lyon", "Nice", "Paris"]})
print("rows", len(df))
total = 0  # BREAKPOINT
total = float(df["price"].sum())
print("total", total)
