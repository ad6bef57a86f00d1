"""A parent that runs subproc_child.py as a subprocess: debugpy follows it
into a child debug session (debugpyAttach), which the editor starts through
the sidecar's proxy (server/session/child_test.go)."""
import subprocess
import sys
from pathlib import Path

subprocess.run([sys.executable, str(Path(__file__).with_name("subproc_child.py"))], check=True)
print("parent done")
