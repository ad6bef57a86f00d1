# engines_ray.py: the engines' table (engines.json) as Ray Data Datasets on
# one local Ray instance (2 CPUs, every address on loopback, no dashboard),
# beside the same table in pandas, for TestEnginesRay
# (inspect/engines_ray_test.go): rds (from_pandas: Ray knows its rows and
# schema), rlazy (a map after a repartition: Ray knows neither until it
# runs; each row it maps writes a file in $RAY_WATCH_DIR, so a test sees
# whether the plan ran) and rmat (materialized).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
import engines  # noqa: E402

WATCH = os.environ.get("RAY_WATCH_DIR", "")


def _watched(row):
    if WATCH:
        open(os.path.join(WATCH, "ran-%s" % os.getpid()), "a").close()
    return dict(row, double=row["qty"] * 2)


def build():
    import ray
    import ray.data
    pdf = engines.build()["pdf"]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.execution_options.preserve_order = True  # pages compare rows in pandas' order
    import pyarrow as pa
    t = pa.Table.from_pandas(pdf.astype({"kind": "string"}), preserve_index=False)
    rds = ray.data.from_arrow(t)
    rlazy = rds.repartition(3).map(_watched)
    rmat = rds.repartition(3).materialize()
    return {"pdf": pdf, "rds": rds, "rlazy": rlazy, "rmat": rmat}


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    locals().update(build())
    print("built")  # BREAK
