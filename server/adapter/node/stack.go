// stack.go: threads (Node's main thread), the stack of the current pause
// (frames with file paths, Node's internals as sources by reference), the
// scopes of a frame (local, closure, block, catch, module, script, global;
// with their variable counts, the global scope collapsed and expensive),
// and the source request for scripts without a file.

package node

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/platform"
)

// errNotPaused is the error of a request that needs a paused program.
var errNotPaused = errors.New("the program is not paused")

// frameRef is a stack frame handle.
type frameRef struct {
	frame *debugger.CallFrame
}

func (s *Server) threads(context.Context, *godap.Request, []byte) (any, error) {
	return godap.ThreadsResponseBody{Threads: []godap.Thread{{Id: ThreadID, Name: "main"}}}, nil
}

func (s *Server) stackTrace(_ context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.StackTraceArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	s.mu.Lock()
	p := s.paused
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
		name := f.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		sf := godap.StackFrame{Id: s.newHandle(frameRef{frame: f}), Name: name,
			Line: int(f.Location.LineNumber) + 1, Column: 1}
		if f.Location.ColumnNumber != nil {
			sf.Column = int(*f.Location.ColumnNumber) + 1
		}
		sf.Source = s.sourceOf(f.Location.ScriptID)
		if sf.Source != nil && sf.Source.PresentationHint == "deemphasize" {
			sf.PresentationHint = "subtle"
		}
		out = append(out, sf)
	}
	return godap.StackTraceResponseBody{StackFrames: out, TotalFrames: total}, nil
}

// sourceOf is the DAP source of a script: its file for file:// URLs and
// paths, a source reference otherwise (node:internal/…).
func (s *Server) sourceOf(id cdp.ScriptID) *godap.Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc, ok := s.scripts[id]
	if !ok {
		return nil
	}
	if path := filePath(sc.url); path != "" {
		return &godap.Source{Name: filepath.Base(path), Path: path}
	}
	if sc.ref == 0 {
		s.nextHandle++ // handles and references share one counter
		sc.ref = s.nextHandle
		s.scriptRefs[sc.ref] = id
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
	s.mu.Lock()
	id, ok := s.scriptRefs[ref]
	s.mu.Unlock()
	if !ok {
		return nil, errors.New("source: unknown sourceReference")
	}
	c, err := s.inspector()
	if err != nil {
		return nil, err
	}
	res, err := call(ctx, c, debugger.GetScriptSource, debugger.GetScriptSourceParams{ScriptID: id})
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
	fr, c, err := live[frameRef](s, "frame", a.FrameId)
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
		ds := godap.Scope{Name: name, VariablesReference: s.newHandle(ref)}
		switch sc.Type {
		case debugger.ScopeTypeGlobal:
			ds.Expensive = true // Node's globals: collapsed, counted on demand
		default:
			if sc.Type == debugger.ScopeTypeLocal {
				ds.PresentationHint = "locals"
			}
			props, err := call(ctx, c, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: sc.Object.ObjectID, OwnProperties: ptr(true)})
			if err == nil {
				ds.NamedVariables = len(props.Result) + ref.extras()
			}
		}
		if sc.StartLocation != nil {
			ds.Line = int(sc.StartLocation.LineNumber) + 1
			if sc.EndLocation != nil {
				ds.EndLine = int(sc.EndLocation.LineNumber) + 1
			}
			ds.Source = s.sourceOf(sc.StartLocation.ScriptID)
		}
		out = append(out, ds)
	}
	return godap.ScopesResponseBody{Scopes: out}, nil
}

// staleErr explains an unknown handle: the program ran since, or it never
// existed.
func (s *Server) staleErr(what string, id int) error {
	s.mu.Lock()
	paused := s.paused != nil
	s.mu.Unlock()
	if !paused {
		return errNotPaused
	}
	return errors.New("unknown " + what + " " + itoa(id) + " (references are valid until the program runs again)")
}

func ptr[T any](v T) *T { return &v }
