// cmd_dap.go: `dapscope dap` — the DAP proxy an editor starts as its debug
// adapter: one editor connection on stdio (default) or on a loopback/unix
// listener, the real adapter behind it, internal clients beside it.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/session"
)

// stdioConn is the editor connection on stdin/stdout.
type stdioConn struct {
	io.Reader
	io.Writer
}

func (stdioConn) Close() error { return os.Stdin.Close() }

func runDAP(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("dap", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	kind := fs.String("adapter", string(adapter.Default), "debug adapter: "+adapter.KindList("%s"))
	listen := fs.String("listen", "", "serve one editor on 127.0.0.1:PORT, unix:/path or (Windows) pipe:\\\\.\\pipe\\NAME instead of stdio")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log, mgr, done, err := c.open()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope dap:", err)
		return 2
	}
	defer done()
	spec := session.ProxySpec{Adapter: *kind}
	if *listen == "" {
		err = mgr.ServeEditor(ctx, stdioConn{os.Stdin, os.Stdout}, spec)
	} else {
		var ln net.Listener
		if ln, err = listenLoopback(*listen); err != nil {
			fmt.Fprintln(os.Stderr, "dapscope dap:", err)
			return 2
		}
		fmt.Fprintf(os.Stderr, "dapscope dap: listening on %s\n", ln.Addr())
		var conn net.Conn
		if conn, err = acceptCtx(ctx, ln); err == nil {
			err = mgr.ServeEditor(ctx, conn, spec)
		}
		_ = ln.Close()
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Error("proxy ended", "err", err)
		return 1
	}
	return 0
}

// listenLoopback listens on a unix socket, a Windows named pipe or a
// loopback TCP address only.
func listenLoopback(addr string) (net.Listener, error) {
	ln, err := platform.Listen(addr)
	if err != nil {
		return nil, fmt.Errorf("--listen %w", err)
	}
	return ln, nil
}

func acceptCtx(ctx context.Context, ln net.Listener) (net.Conn, error) {
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	return ln.Accept()
}
