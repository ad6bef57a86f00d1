"""A table of every dtype a browse filter meets, for FuzzBrowseFilter
(inspect/filter_fuzz_test.go), and an audit hook that records any event a
filter must never cause: a process, a file written or removed, a socket,
a native library. The fuzz reads AUDIT after each filter."""
import sys

import numpy as np
import pandas as pd

AUDIT = []
_WATCHED = ("os.system", "subprocess.Popen", "os.posix_spawn", "os.exec", "os.spawn", "os.fork",
            "os.kill", "os.remove", "os.rmdir", "os.rename", "shutil.rmtree", "shutil.copyfile",
            "socket.connect", "socket.bind", "ctypes.dlopen", "ctypes.cdata", "webbrowser.open")


def _hook(event, args):
    if event.startswith(_WATCHED) or (event == "open" and len(args) > 1 and isinstance(args[1], str) and any(c in args[1] for c in "wax+")):
        AUDIT.append(event)


def build():
    sys.addaudithook(_hook)
    n = 60
    df = pd.DataFrame({
        "qty": pd.array([i % 7 if i % 5 else None for i in range(n)], dtype="Int64"),
        "price": [float(i) * 1.5 if i % 4 else float("nan") for i in range(n)],
        "city": ["Nice", "Lyon", None, "Paris", "Nice"] * (n // 5),
        "flag": [bool(i % 2) for i in range(n)],
        "when": pd.date_range("2024-01-01", periods=n, freq="h"),
        "cat": pd.Categorical(["lo", "hi", "mid"] * (n // 3)),
        0: list(range(n)),
    })
    return {"df": df, "AUDIT": AUDIT}


if __name__ == "__main__":
    build()
