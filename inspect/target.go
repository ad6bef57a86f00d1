// Package inspect is the smart-inspection engine: it turns "what is this
// value?" into one bounded round trip into the debuggee and a typed Result.
//
// This file holds Target, the small view of a live debug session that the
// inspector needs. The server package implements it on top of the DAP
// multiplexer; tests may implement it directly.
package inspect

import (
	"context"
	"sync"
)

// Target is a live, shared debug session as seen by the inspector.
type Target interface {
	// Request sends one DAP request over the session's shared adapter
	// connection and decodes the response body into out (nil discards it).
	// A DAP error response is returned as an error carrying the adapter's
	// message. ctx bounds the wait; the request is never cancelled upstream.
	// Probe calls go through it as evaluate requests unless the Target is
	// also a Transport (probe.go).
	Request(ctx context.Context, command string, args any, out any) error
	// Language is the debuggee's language: it picks the probe (Python,
	// JavaScript) or the DAP variables fallback (Go and anything else).
	Language() Language
	// Paused reports the stopped thread, or ok=false when not paused.
	Paused() (threadID int, ok bool)
	// Status is the session status ("running", "paused", ...), for errors.
	Status() string
	// Values is per-debuggee scratch state owned by the inspector (for
	// example, whether the Python probe is already loaded). It is reset when
	// the debuggee process changes.
	Values() *sync.Map
}
