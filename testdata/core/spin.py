# Loops forever after a few counted iterations: for hit conditions, wait
# timeouts and pause.
import time

n = 0


def tick(n):
    return n + 1  # line 9: breakpoint with a hit condition


while True:
    n = tick(n) if n < 10 else n
    time.sleep(0.01)
