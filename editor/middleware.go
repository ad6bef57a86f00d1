// This file holds the JSON-RPC middleware of the editor channel, gopls style:
// every call runs in its own goroutine with a cancellable context (so a slow
// inspection never blocks hover or $/cancelRequest), panics become JSON-RPC
// errors, and each call is logged with its duration. Notifications run in
// order on the reading goroutine.

package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// handlerFunc answers one request; the result is marshalled as JSON.
type handlerFunc func(ctx context.Context, params json.RawMessage) (any, error)

// router dispatches requests and notifications by method.
type router struct {
	log      *slog.Logger
	calls    map[string]handlerFunc
	notes    map[string]func(ctx context.Context, params json.RawMessage)
	mu       sync.Mutex
	inflight map[string]context.CancelFunc // by request id
	wg       sync.WaitGroup
}

func newRouter(log *slog.Logger) *router {
	return &router{
		log:      log,
		calls:    map[string]handlerFunc{},
		notes:    map[string]func(context.Context, json.RawMessage){},
		inflight: map[string]context.CancelFunc{},
	}
}

// recovered turns a panic in fn into an error.
func recovered(method string, log *slog.Logger, fn func() (any, error)) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("panic in handler", "method", method, "panic", p, "stack", string(debug.Stack()))
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "dapscope: internal error in %s: %v", method, p)
		}
	}()
	return fn()
}

// handle is the jsonrpc2.Handler. It never returns an error (that would close
// the connection); failures are replied.
func (r *router) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	method := req.Method()
	call, isCall := req.(*jsonrpc2.Call)
	if !isCall {
		if method == "$/cancelRequest" {
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(req.Params(), &p) == nil {
				r.mu.Lock()
				cancel := r.inflight[string(p.ID)]
				r.mu.Unlock()
				if cancel != nil {
					cancel()
				}
			}
			return nil
		}
		fn, ok := r.notes[method]
		if !ok {
			r.log.Debug("ignored notification", "method", method)
			return nil
		}
		_, _ = recovered(method, r.log, func() (any, error) { fn(ctx, req.Params()); return nil, nil })
		return nil
	}
	fn, ok := r.calls[method]
	if !ok {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method))
	}
	id := call.ID()
	idKey, _ := json.Marshal(&id)
	cctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.inflight[string(idKey)] = cancel
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.inflight, string(idKey))
			r.mu.Unlock()
			cancel()
		}()
		start := time.Now()
		res, err := recovered(method, r.log, func() (any, error) { return fn(cctx, req.Params()) })
		if err != nil {
			err = rpcError(err)
		}
		r.log.Info("call", "method", method, "id", string(idKey), "ms", float64(time.Since(start).Microseconds())/1000, "err", errString(err))
		if rerr := reply(ctx, res, err); rerr != nil {
			r.log.Debug("reply failed", "method", method, "err", rerr)
		}
	}()
	return nil
}

// cancelAll cancels in-flight calls and waits for them to reply.
func (r *router) cancelAll() {
	r.mu.Lock()
	for _, c := range r.inflight {
		c()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// rpcError keeps JSON-RPC errors and wraps others as request failures.
func rpcError(err error) error {
	if _, ok := err.(*jsonrpc2.Error); ok {
		return err
	}
	if err == context.Canceled {
		return jsonrpc2.NewError(jsonrpc2.Code(-32800), "request cancelled")
	}
	return jsonrpc2.NewError(jsonrpc2.Code(-32803), err.Error()) // LSP RequestFailed
}

// decode unmarshals params strictly enough to give a clear error.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

func invalidParams(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf(format, args...))
}
