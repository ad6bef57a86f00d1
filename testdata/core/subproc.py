# Starts a child Python process: with subProcess debugging, debugpy sends a
# startDebugging reverse request for it.
import subprocess
import sys

subprocess.run([sys.executable, "-c", "print('child says hi')"], check=True)
print("parent done")
