# A small program for the sidecar-core tests: a loop with a breakpoint
# target, output on stdout/stderr, and a function to step into.
import sys


def square(n):
    result = n * n  # line 7: step-in lands here
    return result


def main():
    total = 0
    for i in range(5):
        total += square(i)  # line 14: breakpoint (condition/hit-count tests)
        print("step", i, total)
    print("done on stderr", file=sys.stderr)
    return total


if __name__ == "__main__":
    main()
