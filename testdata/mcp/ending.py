# ending.py: how a run ends, for the MCP outcome tests. "kill" kills the
# program with SIGKILL (as the OOM killer would); "detach" starts a
# `sleep` in a session of its own (start_new_session, like Node's
# detached: true) and stops at a breakpoint, to be terminated there.
import os
import signal
import subprocess
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "kill"
print("mode", mode, flush=True)
if mode == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
child = subprocess.Popen(["sleep", "300"], start_new_session=True)
print("child", child.pid, flush=True)  # STOP
print("not reached after a terminate")
