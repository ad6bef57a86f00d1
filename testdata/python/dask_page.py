"""A Dask frame browsed with a filter: its page comes first, the filter's
counts (a compute over every partition) on request (MCP's compute)."""
import dask.dataframe as dd
import pandas as pd

df = pd.DataFrame({"qty": [i % 7 for i in range(100)], "price": [i * 1.5 for i in range(100)]})
ddf = dd.from_pandas(df, npartitions=4)
print(len(df))  # BREAK
