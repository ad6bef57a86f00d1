"""dapscope e2e fixture: a parent that runs child.py as a subprocess; debugpy
follows it into a child debug session."""
import subprocess
import sys
from pathlib import Path

subprocess.run([sys.executable, str(Path(__file__).with_name("child.py"))], check=True)
print("parent done")
