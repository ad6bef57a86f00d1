# Waits for a debugger on the port given as argv[1] (debugpy.listen), then
# runs a small loop: for attach tests.
import sys

import debugpy

debugpy.listen(("127.0.0.1", int(sys.argv[1])))
print("listening", flush=True)
debugpy.wait_for_client()
value = 0
for i in range(200):
    value += i  # line 12: breakpoint after attach
print("value", value, flush=True)
