// handshake.go: the session's own DAP start-up sequence for a headless
// launch or attach; what differs per adapter (initialize's adapterID, the
// exception filters) comes from its driver.

package session

import (
	"context"
	"errors"
	"time"

	"github.com/dapscope/dapscope/errcode"
	godap "github.com/google/go-dap"
)

// start runs the DAP startup sequence:
//
//	→ initialize            ← initialize response (capabilities)
//	→ launch|attach         (some adapters answer it only after configurationDone)
//	← initialized event
//	→ setBreakpoints…, setExceptionBreakpoints, configurationDone
//	← launch|attach response
func (s *Session) start(ctx context.Context, request string, args map[string]any, byFile map[string][]Breakpoint) error {
	ctx, cancel := context.WithTimeout(ctx, max(s.cfg.opTimeout, 60*time.Second))
	defer cancel()
	fail := func(step string, err error) error {
		err = wrap(err)
		var se *errcode.Error
		if errors.As(err, &se) && se.Code != errcode.AdapterError {
			return err
		}
		return &errcode.Error{Code: errcode.LaunchFailed, Message: step + ": " + err.Error()}
	}
	if !s.initialized {
		if err := s.mux.Call(ctx, "initialize", initializeArgs(s.driver.AdapterID()), nil); err != nil {
			return fail("initialize", err)
		}
	}
	launched := make(chan error, 1)
	go func() { launched <- s.mux.Call(ctx, request, args, nil) }()
	// Wait for initialized (or an early launch failure).
	for !s.mux.State().Initialized {
		select {
		case err := <-launched:
			if err != nil {
				return fail(request, err)
			}
			launched <- nil // launch answered first (some adapters do)
			if !s.mux.State().Initialized {
				select {
				case <-s.mux.Changed():
				case <-ctx.Done():
					return fail("waiting for initialized", ctx.Err())
				}
			}
		case <-s.mux.Changed():
		case <-ctx.Done():
			return fail("waiting for initialized", ctx.Err())
		}
	}
	for file, bps := range byFile {
		if _, err := s.setBreakpoints(ctx, file, bps); err != nil {
			return fail("setBreakpoints", err)
		}
	}
	filters := s.driver.ExceptionFilters()
	if filters == nil {
		filters = []string{} // an empty list, not null: clear the filters
	}
	_ = s.mux.Call(ctx, "setExceptionBreakpoints", map[string]any{"filters": filters}, nil)
	if err := s.mux.Call(ctx, "configurationDone", nil, nil); err != nil {
		return fail("configurationDone", err)
	}
	select {
	case err := <-launched:
		if err != nil {
			return fail(request, err)
		}
	case <-ctx.Done():
		return fail(request, ctx.Err())
	}
	s.mu.Lock()
	if s.runStart.IsZero() && s.stop == nil {
		s.runStart = time.Now()
	}
	s.notifyLocked()
	s.mu.Unlock()
	return nil
}

// initializeArgs is the sidecar's own initialize request.
func initializeArgs(adapterID string) godap.InitializeRequestArguments {
	return godap.InitializeRequestArguments{
		ClientID: "dapscope", ClientName: "dapscope", AdapterID: adapterID, Locale: "en-US",
		LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path", SupportsVariableType: true,
		// debugpy 1.8 asks for a subprocess's session this way (children.go).
		SupportsStartDebuggingRequest: true,
	}
}
