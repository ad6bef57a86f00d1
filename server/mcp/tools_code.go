// tools_code.go: code context for agents — the code_inspect tool (a symbol,
// a path + line, or the code at a stopped frame, from the precomputed code
// graph of inspect/code) and the enclosing symbol + callers that stop
// reports carry. The index opens in the background when the server starts;
// stop reports use it once it is ready and never wait for it.

package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/code"
	"github.com/dapscope/dapscope/platform"
)

// codeIndex opens the workspace's index in the background.
type codeIndex struct {
	ready   chan struct{}
	mu      sync.Mutex
	ix      *code.Index
	err     error
	lastRef time.Time
}

func (c *codeIndex) get(ctx context.Context) (*code.Index, error) {
	select {
	case <-c.ready:
	case <-ctx.Done():
		return nil, &errcode.Error{Code: errcode.IndexNotReady, Message: "the code index is still being built", Hint: "retry in a few seconds"}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ix, c.err
}

// enclosing implements codeContext without waiting for the index.
func (c *codeIndex) enclosing(path string, line int) *CodeContext {
	select {
	case <-c.ready:
	default:
		return nil
	}
	c.mu.Lock()
	ix := c.ix
	c.mu.Unlock()
	if ix == nil {
		return nil
	}
	sym, callers, ok := ix.Enclosing(path, line)
	if !ok || sym == "" {
		return nil
	}
	cc := &CodeContext{Symbol: sym}
	for _, r := range callers {
		cc.Callers = append(cc.Callers, CodeRef{Symbol: r.Symbol, Path: r.Path})
	}
	return cc
}

type codeInspectArgs struct {
	SessionRef
	Symbol            string `json:"symbol,omitempty" jsonschema:"pkg.mod.Class.meth"`
	Path              string `json:"path,omitempty"`
	Line              int    `json:"line,omitempty"`
	IncludeFullSource bool   `json:"include_full_source,omitempty"`
	MaxNeighbors      int    `json:"max_neighbors,omitempty" minimum:"0" maximum:"50"`
	FrameID           int    `json:"frame_id,omitempty"`
}

// CodeResult is code_inspect's answer.
type CodeResult struct {
	*code.Result
}

func (r *CodeResult) text() string { return r.Result.Text() }

func (s *Server) registerCodeTools() {
	ci := &codeIndex{ready: make(chan struct{})}
	s.code = ci
	root := s.mgr.Workspace()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer close(ci.ready)
		// The sessions' node (--node) strips TypeScript for the index too.
		ix, err := code.OpenContext(s.bgCtx, root, code.Options{Node: s.mgr.Options().Node})
		if err != nil {
			s.log.Warn("code index unavailable", "err", err)
		}
		ci.mu.Lock()
		ci.ix, ci.err, ci.lastRef = ix, err, time.Now()
		ci.mu.Unlock()
	}()

	addTool(s, toolSpec{name: "code_inspect", title: "What is this code",
		desc:  "A symbol or file in the code graph: snippet, callers, callees, tests, docs (default: the stop's).",
		hints: hints{readOnly: true, idempotent: true}, more: "ask without include_full_source, or with a smaller max_neighbors"},
		func(ctx context.Context, c *call, p *codeInspectArgs) (*CodeResult, error) {
			q := code.Query{Symbol: p.Symbol, Path: p.Path, Line: p.Line, IncludeFullSource: p.IncludeFullSource, MaxNeighbors: p.MaxNeighbors}
			if q.Symbol == "" && q.Path == "" {
				sess, err := s.session(p.SessionID)
				if err != nil {
					return nil, err
				}
				// One stackTrace: the top frame is its first (an adapter
				// may number frames anew on every stackTrace, as the Node
				// adapter does, so a second call's ids need not match).
				frames, err := sess.StackTrace(ctx, 0, 100)
				if err != nil {
					return nil, err
				}
				for i, f := range frames {
					if (f.Id == p.FrameID || p.FrameID == 0 && i == 0) && f.Source != nil {
						q.Path, q.Line = f.Source.Path, f.Line
					}
				}
				if q.Path == "" {
					return nil, argError("frame_id", "frame %d has no source file", p.FrameID)
				}
			}
			wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			ix, err := ci.get(wctx)
			if err != nil {
				return nil, err
			}
			if ix == nil {
				return nil, &errcode.Error{Code: errcode.IndexUnavailable, Message: "the workspace could not be indexed", Hint: "see the server log"}
			}
			if platform.Host.IsAbs(q.Path) {
				rel, ok := ix.RelPath(q.Path)
				if !ok {
					return nil, &errcode.Error{Code: errcode.NotFound, Field: "path", Message: q.Path + " is outside the indexed workspace"}
				}
				q.Path = rel
			}
			ci.mu.Lock()
			stale := time.Since(ci.lastRef) > 5*time.Second
			if stale {
				ci.lastRef = time.Now()
			}
			ci.mu.Unlock()
			if stale {
				if err := ix.Refresh(ctx); err != nil {
					s.log.Debug("code index refresh", "err", err)
				}
			}
			res, err := ix.InspectEntity(q)
			if err != nil {
				return nil, err
			}
			return &CodeResult{res}, nil
		})
}
