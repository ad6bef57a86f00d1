"""Values for dapscope's inspection tests: one program, many variables, one
breakpoint (the line marked BREAK in build()). main() holds a local of its
own for the non-top-frame test. Deterministic: seeded data only."""
import collections
import dataclasses
import datetime
import os
import sys
import time

import numpy as np
import pandas as pd

MODULE_CONSTANT = 42


@dataclasses.dataclass
class Point:
    x: float
    y: float
    label: str = "p"


Pair = collections.namedtuple("Pair", ["left", "right"])


class Plain:
    def __init__(self):
        self.name = "plain"
        self.items = [1, 2, 3]
        self.cache = {"train": [1, 2], "test": [3]}
        self._private = "hidden"

    @property
    def computed(self):
        raise RuntimeError("properties are never evaluated by the inspector")


class BadRepr:
    def __init__(self):
        self.value = 1

    def __repr__(self):
        raise ValueError("repr is broken")


class SlowLen:
    delay = 1.5

    def __init__(self):
        self.n = 3

    def __len__(self):
        time.sleep(SlowLen.delay)
        return self.n


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1
        self.b = "two"


def greet(name, greeting="hello", *args, excited=False, **kw):
    """Say hello."""
    return "%s %s" % (greeting, name)


def ledger_frame(n):
    """A book of n transactions, held out from the probe's own cases: a
    date, an id-like key with some duplicates, an account (strings from a
    few values), an amount with NaNs, a free-text memo and a flag."""
    r = np.random.default_rng(11)
    amount = np.round(r.normal(120.0, 80.0, n), 2)
    amount[r.random(n) < 0.03] = np.nan
    return pd.DataFrame({
        "date": pd.Timestamp("2024-01-01") + pd.to_timedelta(np.sort(r.integers(0, 365, n)), unit="D"),
        "txn_id": r.integers(100_000, 100_000 + int(n * 0.9), n),
        "account": r.choice(["cash", "bank", "card", "loan", "equity", "revenue"], n),
        "amount": amount,
        "memo": ["memo %d" % i for i in r.integers(0, 800, n)],
        "cleared": r.random(n) < 0.7,
    })


def build():
    rng = np.random.default_rng(7)
    df = pd.DataFrame({"c%d" % i: rng.standard_normal(1000) for i in range(8)})
    df["cat"] = pd.Categorical(rng.choice(["a", "b", "c"], 1000))
    df["when"] = pd.date_range("2024-01-01", periods=1000, freq="h")
    df.loc[[3, 10, 20], "c1"] = np.nan
    df.loc[[5], "c2"] = np.nan
    mixed = pd.DataFrame({
        "obj": ["x", 1, 2.5, None, [1, 2], {"k": "v"}],
        "text": ["alpha", "beta", None, "delta", "epsilon", "zeta"],
        "flag": [True, False, True, True, False, True],
        "cplx": np.array([1 + 2j, 3j, 0, 1, 2, 3], dtype=complex),
        "nint": pd.array([1, None, 3, 4, None, 6], dtype="Int64"),
        "ts": [pd.Timestamp("2024-05-01 12:00"), pd.NaT, pd.Timestamp("2024-05-03"), pd.NaT, pd.Timestamp("2024-05-05"), pd.Timestamp("2024-05-06")],
        "raw": [b"\x00\x01", b"ab", b"", b"z", b"q", b"\xff"],
    })
    empty_df = pd.DataFrame()
    empty_cols = pd.DataFrame(columns=["a", "b"])
    multi = pd.DataFrame(
        np.arange(12).reshape(4, 3),
        index=pd.MultiIndex.from_tuples([("x", 1), ("x", 2), ("y", 1), ("y", 2)], names=["outer", "inner"]),
        columns=pd.MultiIndex.from_tuples([("A", "one"), ("A", "two"), ("B", "one")], names=["top", "sub"]),
    )
    nan_inf = pd.DataFrame({"v": [1.0, np.nan, np.inf, -np.inf, 0.0, 2.0]})
    dup_cols = pd.DataFrame([[1, 2, 3]], columns=["a", "a", 7])
    wide = pd.DataFrame(rng.standard_normal((3, 1000)), columns=["column_with_a_long_name_%04d" % i for i in range(1000)])
    big_df = pd.DataFrame({"c%d" % i: rng.standard_normal(1_000_000) for i in range(10)})
    series = pd.Series(rng.integers(0, 100, 50), name="score", index=pd.RangeIndex(100, 150))
    str_series = pd.Series(["a", "bb", None, "dddd"], name="s")
    arr = np.arange(12, dtype=np.float64).reshape(3, 4)
    arr1m = rng.standard_normal(1_000_000)
    arr3d = np.arange(2 * 30 * 40).reshape(2, 30, 40)
    arr0d = np.array(3.5)
    bool_arr = np.array([True, False, True, True])
    cplx_arr = np.array([1 + 1j, 2 - 1j])
    dt_arr = np.array(["2024-01-01", "NaT", "2024-03-01"], dtype="datetime64[D]")
    obj_arr = np.array([1, "a", None, [1]], dtype=object)
    masked = np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[False, True, False, True])
    structured = np.array([(1, 2.0), (3, 4.0)], dtype=[("id", "i4"), ("score", "f8")])
    nan_arr = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])
    huge = np.zeros(12_000_000, dtype=np.float32)
    scalar_np = np.float32(2.5)
    data = {"train": [1, 2, 3], "test": (4, 5), "meta": {"deep": {"deeper": {"deepest": [1]}}}}
    big_dict = {"key%04d" % i: i for i in range(1000)}
    items = list(range(100))
    nested = [[1, [2, [3, [4, [5]]]]]]
    selfref = [1, 2]
    selfref.append(selfref)
    selfdict = {"a": 1}
    selfdict["me"] = selfdict
    tup = (1, "two", 3.0)
    st = {3, 1, 2}
    fs = frozenset({"x"})
    dq = collections.deque([1, 2, 3], maxlen=5)
    dd = collections.defaultdict(list, {"present": [1]})
    text = "hello world\n" * 100
    short_text = "héllo"
    raw = bytes(range(256)) * 4
    number = 12345678901234567890123
    ratio = 0.1
    not_a_number = float("nan")
    flag = True
    nothing = None
    cplx = 1 + 2j
    point = Point(1.0, 2.0)
    pair = Pair(1, "b")
    plain = Plain()
    bad = BadRepr()
    slow = SlowLen()
    slotted = Slotted()
    func = greet
    klass = Plain
    mod = sys
    obj = Plain()
    obj.items = [Point(0.0, 0.0), Point(1.0, 1.0)]
    long_cell = pd.DataFrame({"s": ["x" * 5000, "y"]})
    if os.environ.get("DAPSCOPE_BENCH_100KX50"):  # BenchmarkDebugpy's 100K×50 frame only
        df100kx50 = pd.DataFrame(rng.standard_normal((100_000, 50)), columns=["c%d" % i for i in range(50)])
        ledger = ledger_frame(2500)  # BenchmarkDebugpy's DataFrame2500x6Ledger
    return locals()  # BREAK


def main():
    outer_only = "from main"
    values = build()
    print("inspect_values done", len(values))


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    main()
