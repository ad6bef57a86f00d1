"""Core arithmetic. Holds add() and the Calculator class."""
import json

LAST = None


def add(a: int, b: int = 0) -> int:
    """Add two non-negative integers.

    Longer explanation that is not part of the summary.

    Args:
        a: the first operand.
        b: the second operand, zero by default.

    Returns:
        The sum of a and b.

    Raises:
        ValueError: if either operand is negative.
    """
    if a < 0 or b < 0:
        raise ValueError("negative operand")
    return a + b


def add_all(values):
    """Sum a list of integers with add()."""
    total = 0
    for v in values:
        total = add(total, v)
    return total


def incr(x):
    """Return x plus one."""
    return add(x, 1)


class Calculator:
    """A running total of pushed numbers."""

    def __init__(self):
        self.values = []

    def push(self, value: int) -> None:
        """Push one value after checking it."""
        self._check(value)
        self.values.append(value)

    def _check(self, value):
        if not isinstance(value, int):
            raise TypeError("value must be an int")

    def total(self) -> int:
        """Return the sum of all pushed values."""
        return add_all(self.values)

    def save(self, path: str) -> None:
        """Write the total to path as JSON."""
        global LAST
        LAST = self.total()
        with open(path, "w") as f:
            json.dump({"total": LAST}, f)
        print("saved", path)


def big_table(n):
    """Build a long table; exists so its snippet must be cut."""
    rows = []
    rows.append(add(n, 0))
    rows.append(add(n, 1))
    rows.append(add(n, 2))
    rows.append(add(n, 3))
    rows.append(add(n, 4))
    rows.append(add(n, 5))
    rows.append(add(n, 6))
    rows.append(add(n, 7))
    rows.append(add(n, 8))
    rows.append(add(n, 9))
    rows.append(add(n, 10))
    rows.append(add(n, 11))
    rows.append(add(n, 12))
    rows.append(add(n, 13))
    rows.append(add(n, 14))
    rows.append(add(n, 15))
    rows.append(add(n, 16))
    rows.append(add(n, 17))
    rows.append(add(n, 18))
    rows.append(add(n, 19))
    rows.append(add(n, 20))
    rows.append(add(n, 21))
    rows.append(add(n, 22))
    rows.append(add(n, 23))
    rows.append(add(n, 24))
    rows.append(add(n, 25))
    rows.append(add(n, 26))
    rows.append(add(n, 27))
    rows.append(add(n, 28))
    rows.append(add(n, 29))
    rows.append(add(n, 30))
    rows.append(add(n, 31))
    rows.append(add(n, 32))
    rows.append(add(n, 33))
    rows.append(add(n, 34))
    rows.append(add(n, 35))
    rows.append(add(n, 36))
    rows.append(add(n, 37))
    rows.append(add(n, 38))
    rows.append(add(n, 39))
    rows.append(add(n, 40))
    rows.append(add(n, 41))
    rows.append(add(n, 42))
    rows.append(add(n, 43))
    rows.append(add(n, 44))
    rows.append(add(n, 45))
    rows.append(add(n, 46))
    rows.append(add(n, 47))
    rows.append(add(n, 48))
    rows.append(add(n, 49))
    rows.append(add(n, 50))
    rows.append(add(n, 51))
    rows.append(add(n, 52))
    rows.append(add(n, 53))
    rows.append(add(n, 54))
    rows.append(add(n, 55))
    rows.append(add(n, 56))
    rows.append(add(n, 57))
    rows.append(add(n, 58))
    rows.append(add(n, 59))
    rows.append(add(n, 60))
    rows.append(add(n, 61))
    rows.append(add(n, 62))
    rows.append(add(n, 63))
    rows.append(add(n, 64))
    rows.append(add(n, 65))
    rows.append(add(n, 66))
    rows.append(add(n, 67))
    rows.append(add(n, 68))
    rows.append(add(n, 69))
    rows.append(add(n, 70))
    rows.append(add(n, 71))
    rows.append(add(n, 72))
    rows.append(add(n, 73))
    rows.append(add(n, 74))
    rows.append(add(n, 75))
    rows.append(add(n, 76))
    rows.append(add(n, 77))
    rows.append(add(n, 78))
    rows.append(add(n, 79))
    rows.append(add(n, 80))
    rows.append(add(n, 81))
    rows.append(add(n, 82))
    rows.append(add(n, 83))
    rows.append(add(n, 84))
    rows.append(add(n, 85))
    rows.append(add(n, 86))
    rows.append(add(n, 87))
    rows.append(add(n, 88))
    rows.append(add(n, 89))
    return rows
