"""A local whose __repr__ takes a minute: nothing dapscope does on its own
(stop reports, snapshots, diffs) may call it; an explicit evaluate of
another expression answers at once."""
import time


class Slow:
    def __init__(self):
        self.calls = 0

    def __repr__(self):
        time.sleep(60)
        return "Slow()"

    def __len__(self):
        time.sleep(60)
        return 1


def main():
    obj = Slow()
    k = 6
    total = k * 7  # BREAK
    return total, obj


if __name__ == "__main__":
    main()
