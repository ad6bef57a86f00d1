"""The soak test's program: an editor steps through the loop while agents
evaluate, inspect, snapshot and diff on the same session."""
import pandas as pd


def main():
    df = pd.DataFrame({"a": range(100), "b": [None, 1.0] * 50})
    k = 7
    total = 0
    for i in range(1000000):
        total += i  # BREAK
        total -= i // 2
    return total + len(df) + k


if __name__ == "__main__":
    main()
