# notcompared.py: locals debug_diff cannot compare by content (an object
# with __slots__ and no __dict__, a generator: no fingerprint without
# running their code), beside ones it can, at two stops of one loop
# (TestDiffNotCompared, server/mcp/fingerprint_diff_test.go).


class Slotted:
    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


def main():
    slots = Slotted()
    gen = (i for i in range(10))
    kept = [1, 2, 3]
    for n in range(2):
        slots.value = n
        next(gen)
        print(n, kept)  # STOP


main()
