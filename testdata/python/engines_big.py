# engines_big.py: 10M rows (DAPSCOPE_BENCH_ROWS) in polars and in DuckDB
# (a table of an in-memory database), and a Spark frame of
# DAPSCOPE_SPARK_ROWS rows (1M by default: local[2] on a shared machine),
# for BenchmarkEngines (inspect/engines_bench_test.go).
import os


def build():
    n = int(os.environ.get("DAPSCOPE_BENCH_ROWS", "10000000"))
    out = {}
    import polars as pl
    i = pl.int_range(0, n, eager=True)
    pl10m = pl.DataFrame({"id": i, "a": ((i * 7919) % 1000003).cast(pl.Float64) / 7.0,
                          "qty": (i * 31) % 97, "city": pl.Series(["Nice", "Paris", "Brest", "Lyon", "Lille"]).gather(i % 5)})
    out["pl10m"] = pl10m
    import duckdb
    con = duckdb.connect()
    arrow = pl10m.to_arrow()  # noqa: F841 (read by name in the next statement)
    con.execute("CREATE TABLE t AS SELECT * FROM arrow")
    out.update(dk_con=con, dk10m=con.table("t"))
    if os.environ.get("DAPSCOPE_SPARK_ROWS", "1000000") != "0":
        try:
            from pyspark.sql import SparkSession
            from pyspark.sql import functions as F
        except ImportError:
            return out
        spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.shuffle.partitions", "2").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        m = int(os.environ.get("DAPSCOPE_SPARK_ROWS", "1000000"))
        sdf = spark.range(m).select(F.col("id"), ((F.col("id") * 7919) % 1000003 / 7.0).alias("a"), (F.col("id") % 97).alias("qty")).cache()
        sdf.count()  # cached: the benchmark times the selection, not the generation
        out.update(spark=spark, sdf=sdf)
    return out


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    locals().update(build())
    print("built")  # BREAK
