"""A loop for the inspector's tests: breakpoints and stepping must keep
working after inspections (the probe pauses the tracer while it runs)."""


def step(i, acc):
    acc.append(i * i)
    return len(acc)  # BREAK


def main():
    acc = []
    for i in range(3):
        step(i, acc)
    print("loop done", acc)


if __name__ == "__main__":
    main()
