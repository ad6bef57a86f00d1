# dapscope's start of debugpy's adapter (server/adapter/debugpy_boot.go):
# `python -c <this>` instead of `python -m debugpy.adapter`, in the adapter
# process that dapscope owns (never in the user's program).
#
# pydevd writes each message to the adapter in two sends (the
# Content-Length header, then the body) on a socket without TCP_NODELAY,
# so Nagle holds the body until the header is ACKed, and Linux delays that
# ACK by up to 40 ms: every pydevd message of the launch (initialize,
# launch, setBreakpoints, configurationDone, the first stop...) waits ~44
# ms. dapscope's first-stop fix sets TCP_NODELAY in pydevd, but only once
# the program is stopped. Here the adapter, the receiving side, asks for a
# quick ACK after every read (Linux's TCP_QUICKACK is not sticky, so it is
# re-armed each time), which releases pydevd's body at once from the very
# first message. Elsewhere (no TCP_QUICKACK) the adapter runs unchanged.
import runpy
import socket
import sys

_QUICKACK = getattr(socket, "TCP_QUICKACK", None)
if _QUICKACK is not None:
    _readinto = socket.SocketIO.readinto

    def _readinto_quickack(self, b):
        n = _readinto(self, b)
        try:
            self._sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
        except (OSError, AttributeError, ValueError):
            pass
        return n

    socket.SocketIO.readinto = _readinto_quickack

# debugpy describes its environment at start-up (every installed
# package's metadata read through importlib.metadata: 0.1-0.2 s in an
# environment of 150 packages) and formats it even when nothing logs it.
# Here it is described only when info messages are logged (--log-dir).
try:
    from debugpy.common import log as _log

    _describe = _log.describe_environment

    def _describe_if_logged(header):
        if "info" in getattr(_log, "_levels", ("info",)):
            _describe(header)

    _log.describe_environment = _describe_if_logged
except Exception:  # another debugpy: it describes as before
    pass

sys.argv[0] = "debugpy.adapter"
runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
