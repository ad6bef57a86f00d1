# A program for the spare-debuggee tests (server/session/spare_test.go):
# what a program can see of how it was started, one stop, output, and an
# exit code of its own.
import os
import sys

seen = {
    "argv": sys.argv,
    "name": __name__,
    "file": os.path.abspath(__file__),
    "path0": sys.path[0],
    "cwd": os.getcwd(),
    "env": os.environ.get("SPARE_TEST_VALUE", ""),
    "stdin": sys.stdin.read(),
}
print("spare probe running")  # line 16: breakpoint
sys.exit(int(os.environ.get("SPARE_TEST_EXIT", "0")))
