"""Reading numbers from files."""
from calc import Calculator, add


def load(path):
    """Read one integer per line from path and return their sum.

    Parameters
    ----------
    path : str
        File to read.

    Returns
    -------
    int
        The sum of all lines.
    """
    total = 0
    with open(path) as f:
        for line in f:
            total = add(total, int(line))
    return total


class Loader:
    """Loads files into a Calculator."""

    def __init__(self):
        self.calc = Calculator()

    def run(self, path):
        """Push the total of one file."""
        self.calc.push(load(path))
        return self.calc.total()
