# sleeper.py: runs until paused or ended, for the MCP tests of wait
# timeouts, progress, pause, cancellation and NOT_PAUSED errors.
import time

counter = 0
while True:
    counter += 1
    time.sleep(0.02)
