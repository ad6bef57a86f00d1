// stack.go: the stack of a thread's pause (frames at their original
// source and line through source maps, with file paths; Node's internals
// named by their node:internal/… source by reference and deemphasized),
// the scopes of a frame (local, closure, block, catch, module, script,
// global; with their variable counts, the global scope collapsed and
// expensive), and the source request for scripts without a file and for
// original sources known only from a map's sourcesContent.

package node

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
)

// errNotPaused is the error of a request that needs a paused program.
var errNotPaused = errors.New("the program is not paused")

// frameRef is a stack frame handle.
type frameRef struct {
	frame *debugger.CallFrame
}

func (s *Server) stackTrace(_ context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.StackTraceArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	th, err := s.threadByID(a.ThreadId)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	p := th.paused
	s.mu.Unlock()
	if p == nil {
		return nil, errNotPaused
	}
	frames := p.CallFrames
	total := len(frames)
	start := min(max(a.StartFrame, 0), total)
	end := total
	if a.Levels > 0 {
		end = min(start+a.Levels, total)
	}
	out := make([]godap.StackFrame, 0, end-start)
	for _, f := range frames[start:end] {
		out = append(out, s.stackFrame(th, f))
	}
	return godap.StackTraceResponseBody{StackFrames: out, TotalFrames: total}, nil
}

// stackFrame is the DAP frame of f: at its original source and line when
// its script has a usable source map; Node's internal frames named by
// their node:internal/… source and deemphasized (clients fold them, as
// js-debug's skipped frames).
func (s *Server) stackFrame(th *thread, f *debugger.CallFrame) godap.StackFrame {
	loc := s.location(th, f.Location)
	name := f.FunctionName
	if name == "" {
		name = "(anonymous)"
		if loc.internal {
			name = "<" + strings.TrimPrefix(loc.src.Name, "node:") + ">" // a module's top level
		}
	}
	sf := godap.StackFrame{Id: s.newHandle(th, frameRef{frame: f}), Name: name, Line: loc.line, Column: loc.column, Source: loc.src}
	if loc.internal {
		sf.PresentationHint = "subtle"
	}
	return sf
}

// place is a location as the client sees it.
type place struct {
	src          *godap.Source
	line, column int  // 1-based
	internal     bool // Node's own code (node:…)
	mapped       bool // through a source map
}

// location is where loc is for the client: its original source when the
// script has a usable source map, else the script itself.
func (s *Server) location(th *thread, loc *debugger.Location) place {
	p := place{line: int(loc.LineNumber) + 1, column: 1}
	if loc.ColumnNumber != nil {
		p.column = int(*loc.ColumnNumber) + 1
	}
	if o, ok := s.original(th, loc); ok {
		p.src, p.line, p.column, p.mapped = o.source(), o.line, o.column, true
		return p
	}
	p.src = s.sourceOf(th, loc.ScriptID)
	p.internal = p.src != nil && p.src.PresentationHint == "deemphasize"
	return p
}

// sourceOf is the DAP source of a script: its file for file:// URLs and
// paths, a source reference otherwise (node:internal/…).
func (s *Server) sourceOf(th *thread, id cdp.ScriptID) *godap.Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, ok := th.scripts[id]
	if !ok {
		return nil
	}
	if path := filePath(sc.url); path != "" {
		return &godap.Source{Name: filepath.Base(path), Path: path}
	}
	if sc.ref == 0 {
		s.nextHandle++ // handles and references share one counter
		sc.ref = s.nextHandle
		s.scriptRefs[sc.ref] = scriptKey{th: th, id: id}
	}
	src := &godap.Source{Name: sc.url, SourceReference: sc.ref}
	if strings.HasPrefix(sc.url, "node:") {
		src.PresentationHint = "deemphasize"
		src.Origin = "internal module"
	}
	return src
}

// filePath is the file a script URL names ("": not a file).
func filePath(u string) string { return filePathIn(platform.Host, u) }

// filePathIn is filePath for flavour f (Node on Windows names CommonJS
// scripts C:\x\app.js and ES modules file:///C:/x/app.mjs).
func filePathIn(f platform.Flavour, u string) string {
	if strings.HasPrefix(u, "file://") {
		p, _ := f.FromURL(u)
		return p
	}
	if f.IsAbs(u) {
		return u
	}
	return ""
}

func (s *Server) source(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.SourceArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	ref := a.SourceReference
	if ref == 0 && a.Source != nil {
		ref = a.Source.SourceReference
	}
	if content, ok := s.maps.content(ref); ok { // an original source known only from its map
		return godap.SourceResponseBody{Content: content, MimeType: "text/plain"}, nil
	}
	s.mu.Lock()
	key, ok := s.scriptRefs[ref]
	s.mu.Unlock()
	if !ok {
		return nil, errors.New("source: unknown sourceReference")
	}
	res, err := call(ctx, key.th.c, debugger.GetScriptSource, debugger.GetScriptSourceParams{ScriptID: key.id})
	if err != nil {
		return nil, err
	}
	return godap.SourceResponseBody{Content: res.ScriptSource, MimeType: "text/javascript"}, nil
}

// scopeNames are the DAP names of V8's scope types.
var scopeNames = map[debugger.ScopeType]string{
	debugger.ScopeTypeLocal: "Local", debugger.ScopeTypeClosure: "Closure", debugger.ScopeTypeBlock: "Block",
	debugger.ScopeTypeCatch: "Catch", debugger.ScopeTypeModule: "Module", debugger.ScopeTypeScript: "Script",
	debugger.ScopeTypeGlobal: "Global", debugger.ScopeTypeWith: "With", debugger.ScopeTypeEval: "Eval",
}

func (s *Server) scopes(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.ScopesArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	fr, th, err := live[frameRef](s, "frame", a.FrameId)
	if err != nil {
		return nil, err
	}
	f := fr.frame
	out := make([]godap.Scope, 0, len(f.ScopeChain))
	for i, sc := range f.ScopeChain {
		name := scopeNames[sc.Type]
		if name == "" {
			name = string(sc.Type)
		}
		if sc.Name != "" && sc.Type == debugger.ScopeTypeClosure {
			name += " (" + sc.Name + ")"
		}
		ref := &varRef{object: sc.Object.ObjectID, frame: f, scope: i, isScope: true}
		if i == 0 && sc.Type == debugger.ScopeTypeLocal {
			ref.this, ref.ret = f.This, f.ReturnValue
		}
		ds := godap.Scope{Name: name, VariablesReference: s.newHandle(th, ref)}
		switch sc.Type {
		case debugger.ScopeTypeGlobal:
			ds.Expensive = true // Node's globals: collapsed, counted on demand
		default:
			if sc.Type == debugger.ScopeTypeLocal {
				ds.PresentationHint = "locals"
			}
			if n, long, err := countScope(ctx, th.c, sc.Object.ObjectID); err == nil { // variables.go
				ds.NamedVariables, ref.long = n+ref.extras(), long
			}
		}
		if sc.StartLocation != nil {
			start := s.location(th, sc.StartLocation)
			ds.Line, ds.Source = start.line, start.src
			if sc.EndLocation != nil {
				if end := s.location(th, sc.EndLocation); end.src != nil && start.src != nil && end.src.Path == start.src.Path {
					ds.EndLine = end.line
				}
			}
		}
		out = append(out, ds)
	}
	return godap.ScopesResponseBody{Scopes: out}, nil
}

// staleErr explains an unknown handle: the program ran since, or it never
// existed.
func (s *Server) staleErr(what string, id int) error {
	s.mu.Lock()
	paused := false
	for _, th := range s.threads {
		paused = paused || th.paused != nil
	}
	s.mu.Unlock()
	if !paused {
		return errNotPaused
	}
	return errors.New("unknown " + what + " " + itoa(id) + " (references are valid until the program runs again)")
}

func ptr[T any](v T) *T { return &v }
