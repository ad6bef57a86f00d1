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

# debugpy reads every message's headers from an unbuffered socket file,
# one byte per read (its own TODO in JsonIOStream.from_socket says so): a
# Python-level readinto and a recv (plus the quick ACK above) per byte of
# "Content-Length: 563\r\n\r\n", on every client's and every pydevd
# server's connection. With a tree of processes all their messages go
# through this one adapter, so those calls serialise an "all processes"
# question. Here the adapter reads each connection through a buffer: one
# recv takes what has arrived. Writes are as before. The buffered reader's
# close leaves the socket to the stream's cleanup, whose shutdown ends a
# read blocked in another thread (closing the buffer would wait for it).
try:
    import io

    from debugpy.common import messaging as _messaging

    _from_socket = _messaging.JsonIOStream.from_socket.__func__

    class _SocketReader(io.BufferedReader):
        def close(self):
            pass

    def _from_socket_buffered(cls, sock, name=None):
        stream = _from_socket(cls, sock, name)
        stream._reader = _SocketReader(stream._writer)
        return stream

    _messaging.JsonIOStream.from_socket = classmethod(_from_socket_buffered)
except Exception:  # another debugpy: it reads as before
    pass

sys.argv[0] = "debugpy.adapter"
runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
