"""A program that never imports pandas or numpy: the inspector must still
describe its values, must not import those libraries into it, and must not
mistake look-alike classes for them."""
import os


class DataFrame:
    """Not pandas: a look-alike name in the user's own module."""

    def __init__(self):
        self.shape = (2, 2)
        self.columns = ["a", "b"]


def build():
    frame = DataFrame()
    rows = [{"a": 1, "b": 2}, {"a": 3, "b": 4}]
    lookup = {"x": rows}
    return locals()  # BREAK


if __name__ == "__main__" and not os.environ.get("DAPSCOPE_FIXTURE_NO_MAIN"):
    build()
