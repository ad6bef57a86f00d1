# engines.py: the same table (engines.json: nulls, strings, dates, a
# categorical) in pandas and in each data engine the interpreter has, for
# TestEnginesParity (inspect/engines_parity_test.go). pandas holds the
# missing values as nullable dtypes (Int64, Float64, NaT, a categorical's
# -1), the engines as their own nulls.
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


RAN = []


def _record(df):
    RAN.append(len(df))
    return df


def build():
    import pandas as pd
    d = json.load(open(os.path.join(HERE, "engines.json")))["table"]
    df = pd.DataFrame(d)
    df = df.astype({"id": "Int64", "price": "Float64", "qty": "int64", "ok": "bool"})
    df["city"] = df["city"].astype(object).where(df["city"].notna(), None)
    df["kind"] = pd.Categorical(df["kind"])
    df["day"] = pd.to_datetime(df["day"])
    # the keys table: orders joined to customers whose ids repeat (order_id
    # fans out), one order appended twice (a duplicate row), a near-unique
    # serial that repeats once, a discount whose duplicate row holds -0.0 (equal to 0.0)
    keys = pd.DataFrame(json.load(open(os.path.join(HERE, "engines.json")))["keys"])
    keys["at"] = pd.to_datetime(keys["at"])
    out = {"pdf": df, "pser": df["price"], "pcity": df["city"], "pkeys": keys, "pkey_ser": keys["order_id"]}
    try:
        import polars as pl
        p = pl.from_pandas(df)
        out.update(pl_keys=pl.from_pandas(keys), pl_key_ser=pl.from_pandas(keys)["order_id"])
        # pl_watch records each run of its plan (RAN): an inspection never runs it unless asked (compute)
        out.update(pl_df=p, pl_ser=p["price"], pl_city=p["city"], pl_lazy=p.lazy().filter(pl.col("qty") > 2),
                   pl_watch=p.lazy().map_batches(_record))
    except ImportError:
        pass
    try:
        import pyarrow as pa
        t = pa.Table.from_pandas(df, preserve_index=False)
        kt = pa.Table.from_pandas(keys, preserve_index=False)
        out.update(pa_keys=kt, pa_keys_batch=kt.combine_chunks().to_batches()[0])
        out.update(pa_t=t, pa_batch=t.combine_chunks().to_batches()[0], pa_ser=t.column("price"), pa_arr=t.column("price").combine_chunks())
    except ImportError:
        pass
    try:
        import duckdb
        con = duckdb.connect()
        con.from_df(df).create("sales")  # a table, inspected by name: dk_con['sales']
        # the same rows with nanosecond dates, a type whose later pages are rowid lookups (not kept as Arrow)
        con.execute("CREATE TABLE sales_ns AS SELECT * REPLACE (CAST(day AS TIMESTAMP_NS) AS day) FROM sales")
        con.from_df(keys).create("orders")  # the keys table, by name: dk_con['orders']
        out.update(dk_con=con, dk_rel=con.from_df(df), dk_keys=con.from_df(keys))
    except ImportError:
        pass
    try:
        import dask
        import dask.array as da
        import dask.dataframe as dd
        dask.config.set(scheduler="synchronous")  # the probe's computes run here, in this thread
        out.update(dask_df=dd.from_pandas(df, npartitions=3), dask_ser=dd.from_pandas(df["price"], npartitions=3),
                   dask_arr=da.from_array(df["qty"].to_numpy(), chunks=10), np_arr=df["qty"].to_numpy(),
                   dask_keys=dd.from_pandas(keys, npartitions=3), dask_key_ser=dd.from_pandas(keys["order_id"], npartitions=3))
    except ImportError:
        pass
    return out


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    locals().update(build())
    print("built")  # BREAK
