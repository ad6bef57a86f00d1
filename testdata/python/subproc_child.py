"""The subprocess of subproc_parent.py, with a dict to look at."""
import os

settings = {"pid": os.getpid(), "mode": "child", "retries": 3}
print(len(settings))  # CHILD BREAKPOINT
