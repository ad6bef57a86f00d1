"""dapscope e2e fixture: the subprocess, with a dict to inspect."""
import os

settings = {"pid": os.getpid(), "mode": "child", "retries": 3}
print(len(settings))  # CHILD BREAKPOINT
