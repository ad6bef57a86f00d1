# dapscope's spare debuggee (server/adapter/debugpy_spare.go): a Python
# started ahead of a headless launch, with debugpy's command line, server
# and pydevd already imported, that waits on stdin for the program to run.
# It holds no socket while it waits. The launch is one JSON line:
#   {"host", "port"}      where the session's adapter listens (an attach
#                         with "listen"; pydevd connects to it),
#   {"program"|"module", "args", "cwd", "env", "subprocesses"}.
# It then runs what debugpy's launcher would have started:
#   python -m debugpy --connect HOST:PORT --wait-for-client PROGRAM ARGS…
# through the same command line (debugpy.server.cli), in this process.
import json
import os
import sys

import debugpy
from debugpy.server import cli as _cli  # the server and pydevd, imported now

sys.stdout.write('{"ready": true}\n')
sys.stdout.flush()
_line = sys.stdin.readline()
if not _line.strip():
    os._exit(0)  # dapscope closed the spare without using it
_req = json.loads(_line)
_fd = os.open(os.devnull, os.O_RDONLY)  # a headless program's stdin: nothing
os.dup2(_fd, 0)
os.close(_fd)
os.chdir(_req["cwd"])
os.environ.update(_req.get("env") or {})

_connect = debugpy.connect


def _connect_nodelay(*args, **kwargs):
    # pydevd writes header and body in two sends: without TCP_NODELAY each
    # message of the start waits for a delayed ACK.
    _connect(*args, **kwargs)
    try:
        import socket
        import pydevd

        pydevd.get_global_debugger().writer.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except Exception:
        pass
    try:
        # This file runs as `python -c`, whose top-level "<string>" frame
        # pydevd takes for the user's code: an error of debugpy's command
        # line passing through it would stop here. It is the debugger's own
        # (pydevd's file-type cache, keyed as pydevd keys it).
        import pydevd
        from _pydevd_bundle.pydevd_dont_trace_files import PYDEV_FILE

        f = sys._getframe()
        while f.f_back is not None:
            f = f.f_back
        pydevd._CACHE_FILE_TYPE[(f.f_code.co_firstlineno, "<string>", f.f_code)] = PYDEV_FILE
    except Exception:
        pass


debugpy.connect = _connect_nodelay

try:
    # debugpy's command line describes the environment (every installed
    # package's metadata: 0.1-0.2 s in a venv of 150 packages) before it
    # runs the program, even when nothing logs it; here only when logging.
    from debugpy.common import log as _log

    _describe = _log.describe_environment

    def _describe_if_logged(header):
        if "info" in getattr(_log, "_levels", ("info",)) or os.environ.get("DEBUGPY_LOG_DIR"):
            _describe(header)

    _log.describe_environment = _describe_if_logged
except Exception:
    pass
_target = ["-m", _req["module"]] if _req.get("module") else [_req["program"]]
sys.argv = [
    "debugpy",
    "--connect", "%s:%d" % (_req["host"], _req["port"]),
    "--configure-subProcess", "true" if _req.get("subprocesses", True) else "false",
    "--wait-for-client",
] + _target + list(_req.get("args") or [])
del _fd, _line, _req, _target
_cli.main()
