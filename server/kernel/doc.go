// Package kernel reaches live Jupyter kernels: it reads and checks
// connection files, discovers running kernels (the Jupyter runtime directory
// and kernel processes' -f arguments), speaks the Jupyter messaging protocol
// (5.3+) over ZeroMQ (github.com/go-zeromq/zmq4, pure Go, HMAC-signed) and
// over a Jupyter Server's kernel channels websocket, and tracks whether the
// kernel is busy with a user's cell.
//
// One Client serves both transports: Dial (a connection file) and
// Server.Dial (a kernel behind a Jupyter Server). Every call is bounded by
// its context; a call that would queue behind a running cell fails at once
// with a *BusyError unless the caller passed a wait. See docs/kernels.md.
package kernel
