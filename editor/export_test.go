// export_test.go: what the external tests (package editor_test) reach
// inside a Server: its method table, and a method of their own.

package editor

import (
	"context"
	"encoding/json"
	"slices"
)

// Methods lists the methods of the channel's table, requests and
// notifications, sorted.
func (s *Server) Methods() []string {
	var out []string
	for m := range s.r.calls {
		out = append(out, m)
	}
	for m := range s.r.notes {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// HandleCall adds a request method to the table (before Serve).
func (s *Server) HandleCall(method string, h func(ctx context.Context, params json.RawMessage) (any, error)) {
	s.r.calls[method] = h
}
