# For the wake-patch detach tests (server/session/wake_test.go): listens for
# debuggers on the port given as argv[1] (debugpy.listen) and loops until a
# debugger sets stop[0], so sessions can attach, detach and attach again.
import sys
import time

import debugpy

debugpy.listen(("127.0.0.1", int(sys.argv[1])))
print("listening", flush=True)
stop = [False]
i = 0
while not stop[0]:
    i += 1  # BP_LOOP
    time.sleep(0.01)
