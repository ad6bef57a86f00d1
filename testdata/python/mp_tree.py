"""Worker processes of every kind debugpy may follow: argv[1] picks
multiprocessing with fork, spawn or forkserver ("pool-fork", …; argv[2]
workers, default 2),
concurrent.futures.ProcessPoolExecutor ("executor"), or
subprocess.Popen of a Python ("popen"). Each worker computes on its own
data; WORKER BREAKPOINT is where a test stops it
(server/session/tree_test.go)."""
import multiprocessing as mp
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor


def work(n):
    data = {"n": n, "pid": os.getpid(), "tag": os.environ.get("TREE_TAG", "")}
    total = sum(range(n))  # WORKER BREAKPOINT
    return total + len(data)


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "pool-spawn"
    if kind == "worker":
        print("worker", work(int(sys.argv[2])))
    elif kind.startswith("pool-"):
        workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
        with mp.get_context(kind[5:]).Pool(workers) as pool:
            print("results", pool.map(work, [10 * (i + 1) for i in range(workers)], chunksize=1))
    elif kind == "executor":
        with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
            print("results", list(ex.map(work, [10, 20])))
    elif kind == "popen":
        procs = [subprocess.Popen([sys.executable, __file__, "worker", str(n)]) for n in (10, 20)]
        print("results", [p.wait() for p in procs])
    print("parent done")
