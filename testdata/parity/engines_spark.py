# engines_spark.py: the engines' table (engines.json) as a Spark DataFrame
# on one local[2] SparkSession (the UI off, 2 shuffle partitions), beside
# the same table in pandas, for TestEnginesSpark (inspect/engines_spark_test.go).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402


def build():
    from pyspark.sql import SparkSession
    pdf = engines.build()["pdf"]
    spark = (SparkSession.builder.master("local[2]").appName("dapscope-tests").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.codegen.wholeStage", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    import datetime
    import json
    rows = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "engines.json")))["table"]
    rows = [dict(r, day=datetime.datetime.fromisoformat(r["day"]) if r["day"] else None) for r in rows]
    sdf = spark.createDataFrame(rows, schema="id long, price double, city string, kind string, day timestamp, ok boolean, qty long")
    sdf = sdf.repartition(3)
    sdf.groupBy("city").count().collect()  # warm the JVM: the probe's first jobs are not its compilation
    # the keys table (order_id fans out, one duplicate row whose discount is -0.0)
    keys = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "engines.json")))["keys"]
    keys = [dict(r, at=datetime.datetime.fromisoformat(r["at"])) for r in keys]
    skeys = spark.createDataFrame(keys, schema="order_id long, customer string, region string, amount double, at timestamp, "
                                  "serial long, discount double").repartition(2)
    return {"pdf": pdf, "spark": spark, "sdf": sdf, "pkeys": engines.build()["pkeys"], "skeys": skeys}


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    locals().update(build())
    print("built")  # BREAK
