# Writes more output than a small output buffer holds (truncation tests).
import sys

line = "x" * 99 + "\n"
for i in range(int(sys.argv[1]) if len(sys.argv) > 1 else 2000):
    sys.stdout.write(line)
sys.stdout.flush()
