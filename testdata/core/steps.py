# A long loop to step through (stepping benchmarks).
def work(n):
    acc = 0
    for i in range(n):
        acc += i * 2  # line 5: first stop
        acc -= i
    return acc


print(work(10_000_000))
