"""A local Ray cluster (loopback only, 2 CPUs) whose tasks pause at
breakpoint(): Ray's distributed debugger (RAY_DEBUG=1, its default) makes
each paused worker listen with debugpy and registers its port with the
cluster's state. argv[1] picks the scenario:

  "shards": two tasks, each on its own shard of a table; shard 1 carries
            the planted anomaly (its price column is all NaN) — RAY TASK
            BREAKPOINT is where both pause;
  "postmortem": one task that raises on its shard (a KeyError, the
            column it looks up is not there — RAY TASK RAISES); with
            RAY_DEBUG_POST_MORTEM=1 Ray freezes the worker in the
            exception, listening with debugpy, as for a breakpoint();
  "dataset": a Ray Data Dataset held in the driver, which pauses in
            debugpy itself (the driver is launched by dapscope).

The driver prints one JSON line (the dashboard's URL, the GCS address and
the session directory), then waits until its stdin closes, shuts the
cluster down and exits: the tests end it so, and check that no process of
the cluster is left (server/ray/raytest)."""
import json
import os
import sys

os.environ.setdefault("RAY_DEBUG", "1")
# Every address of the cluster on loopback (Ray's own switch for it).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import ray  # noqa: E402


@ray.remote
def shard(i):
    df = pd.DataFrame({"key": np.arange(i * 100, i * 100 + 100), "price": np.linspace(1.0, 2.0, 100)})
    if i == 1:
        df["price"] = np.nan  # the planted anomaly
    total = float(df["price"].sum())  # RAY TASK BREAKPOINT
    breakpoint()
    return total


@ray.remote
def failing(i):
    df = pd.DataFrame({"key": np.arange(i * 100, i * 100 + 100), "price": np.linspace(1.0, 2.0, 100)})
    wanted = "cost"
    if wanted not in df.columns:
        raise KeyError(f"{wanted} is not a column of shard {i}")  # RAY TASK RAISES
    return float(df[wanted].sum())


def dataset():
    import ray.data

    ds = ray.data.from_items([{"key": i, "price": float(i) * 1.5, "city": "c%d" % (i % 3)} for i in range(200)])
    ds = ds.repartition(4)
    lazy = ds.map(lambda r: {**r, "double": r["price"] * 2})
    return ds, lazy


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else "shards"
    if kind == "postmortem":
        os.environ["RAY_DEBUG_POST_MORTEM"] = "1"  # the workers inherit it
    ray.init(num_cpus=2, include_dashboard=(kind != "dataset"), dashboard_host="127.0.0.1", log_to_driver=False)
    node = ray._private.worker._global_node
    info = {"dashboard": ray._private.worker.get_dashboard_url() or "", "gcs": node.gcs_address,
            "session_dir": node.get_session_dir_path(), "pid": os.getpid()}
    if kind == "shards":
        refs = [shard.remote(i) for i in range(2)]
        info["tasks"] = len(refs)
    if kind == "postmortem":
        refs = [failing.remote(7)]
    print(json.dumps(info), flush=True)
    if kind == "dataset":
        ds, lazy = dataset()
        print("DATASET READY", flush=True)  # DATASET BREAKPOINT
    sys.stdin.read()
    ray.shutdown()


if __name__ == "__main__":
    main()
