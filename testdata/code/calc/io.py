"""Reading numbers from files."""
from calc import add


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
