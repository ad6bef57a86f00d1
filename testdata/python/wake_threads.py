# For the debugpy wake-patch tests (server/session/wake_test.go): main steps
# through a few lines (step over/in/out, goto), then two threads spin until
# released; a breakpoint in spin() stops both at once (debugpy suspends every
# thread), so a test can evaluate on each thread's top frame. The tests find
# lines by the markers in the comments.
import threading

done = [False]
ready = threading.Barrier(2)


def spin(name):
    ready.wait()  # both threads exist before either reaches BP_SPIN
    n = 0
    while not done[0]:
        n += 1  # BP_SPIN
    return n


def helper(x):
    y = x * 2  # IN_HELPER
    return y


def main():
    a = 1  # BP_MAIN
    b = helper(a)  # CALL_HELPER
    c = a + b  # AFTER_HELPER
    total = 0  # GOTO_TARGET
    for i in range(3):
        total += i
    threads = [threading.Thread(target=spin, args=("spin%d" % i,), name="spin%d" % i) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("wake_threads done", c, total, flush=True)


main()
