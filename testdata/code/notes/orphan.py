def lonely(x):
    """Nobody calls me and I call nobody."""
    y = x * 2
    return y
