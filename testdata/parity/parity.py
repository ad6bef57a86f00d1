# parity.py: the Python side of the probes' parity table (inspect/parity_test.go).
# build() turns the shared data (values.json) into Python's kinds: a records
# table is a pandas DataFrame, a numeric array a numpy array, a mapping a
# dict, an object an instance with attributes. parity.js builds the same
# values for JavaScript.
import json
import math
import os

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))


def _num(x):
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


class Widget(object):
    def __init__(self, d):
        for k, v in d.items():
            setattr(self, k, v)


def build():
    d = json.load(open(os.path.join(HERE, "values.json")))
    n = d["big_len"]
    return {
        "records": pd.DataFrame(d["records"]),
        "record_list": d["records"],  # browsed as a list of records (inspect/parity_pages_test.go)
        "empty_records": pd.DataFrame({"id": pd.Series([], dtype="int64")}),
        "floats": np.array([_num(x) for x in d["floats"]], dtype="float64"),
        "ints": np.array(d["ints"], dtype="int32"),
        "big": np.array([((i * 7919) % 10007) / 7.0 for i in range(n)], dtype="float64"),
        "mapping": d["mapping"],
        "text": d["text"],
        "short_text": d["short_text"],
        "precise": np.array(d["precise"], dtype="float64"),
        "obj": Widget(d["obj"]),
        "nothing": None,
        "flag": True,
        "count": 42,
        "ratio": d["precise"][0],
        "nums_list": d["nums_list"],
        "words": d["words"],
        "flags": d["flags"],
    }


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    locals().update(build())
    print("built")  # BREAK
