// breakpoints.go: line breakpoints through Debugger.setBreakpointByUrl in
// every thread (a URL pattern matching the file's path and its file://
// URL, so scripts loaded later bind too; for a source of a source map, the
// generated file at the mapped line and column), their verified state and
// actual line and column (now, or later through
// Debugger.breakpointResolved and a DAP breakpoint event; in the original
// source for a mapped one), and the exception filters. Conditions, hit
// conditions and logpoints are compiled in conditions.go.

package node

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/debugger"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
)

// bp is one DAP breakpoint.
type bp struct {
	id           int
	path         string // the file it was set in: a script, or a source of a map
	line, column int    // where it is (1-based; as asked until bound; column 0: none asked)
	asked        godap.SourceBreakpoint
	cond         string     // the compiled CDP condition (conditions.go)
	message      string     // why it is not verified, or what its condition threw
	verified     bool       //
	binds        []*binding // where it is set: per thread, the file itself and each generated file
}

// bindable says whether p can be set (its condition compiled).
func (p *bp) bindable() bool {
	return p.cond != "" || p.asked.Condition == "" && p.asked.HitCondition == "" && p.asked.LogMessage == ""
}

// binding is one CDP breakpoint of a bp, in one thread.
type binding struct {
	th    int
	cdpID debugger.BreakpointID
	locs  []*debugger.Location // where V8 bound it
	gen   string               // the generated file of a mapped binding ("": the file itself)
}

// bindKey names a CDP breakpoint: their ids are per thread.
type bindKey struct {
	th int
	id debugger.BreakpointID
}

// breakpoints are the session's breakpoints, by file.
type breakpoints struct {
	mu     sync.Mutex
	byPath map[string][]*bp
	byID   map[int]*bp
	byCDP  map[bindKey]*binding
	owner  map[*binding]*bp
	next   int
}

func newBreakpoints() breakpoints {
	return breakpoints{byPath: map[string][]*bp{}, byID: map[int]*bp{}, byCDP: map[bindKey]*binding{}, owner: map[*binding]*bp{}}
}

// at is the breakpoint bound at loc's line in loc's script of thread th
// (nil: none).
func (b *breakpoints) at(th int, loc *debugger.Location) *bp {
	if loc == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, bd := range b.byCDP {
		if k.th != th {
			continue
		}
		for _, l := range bd.locs {
			if l.ScriptID == loc.ScriptID && l.LineNumber == loc.LineNumber {
				return b.owner[bd]
			}
		}
	}
	return nil
}

// dapIDs maps the CDP breakpoints a pause of thread th hit to DAP ids.
func (b *breakpoints) dapIDs(th int, ids []string) []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []int
	for _, id := range ids {
		if bd, ok := b.byCDP[bindKey{th, debugger.BreakpointID(id)}]; ok && !slices.Contains(out, b.owner[bd].id) {
			out = append(out, b.owner[bd].id)
		}
	}
	return out
}

// resolved records a location V8 bound a CDP breakpoint of thread th to;
// it returns the breakpoint and binding when it was the first (the
// breakpoint becomes verified there).
func (b *breakpoints) resolved(th int, id debugger.BreakpointID, loc *debugger.Location) (*bp, *binding) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bd, ok := b.byCDP[bindKey{th, id}]
	if !ok || loc == nil {
		return nil, nil
	}
	bd.locs = append(bd.locs, loc)
	p := b.owner[bd]
	if p.verified {
		return nil, nil
	}
	return p, bd
}

// forgetThread drops the bindings of a thread that has ended.
func (b *breakpoints) forgetThread(th int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, bd := range b.byCDP {
		if k.th == th {
			p := b.owner[bd]
			p.binds = slices.DeleteFunc(p.binds, func(x *binding) bool { return x == bd })
			delete(b.byCDP, k)
			delete(b.owner, bd)
		}
	}
}

// all is every breakpoint.
func (b *breakpoints) all() []*bp {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []*bp
	for _, list := range b.byPath {
		out = append(out, list...)
	}
	return out
}

func (s *Server) dapBreakpoint(p *bp) godap.Breakpoint {
	s.bps.mu.Lock()
	defer s.bps.mu.Unlock()
	out := godap.Breakpoint{Id: p.id, Verified: p.verified, Line: p.line, Message: p.message,
		Source: &godap.Source{Name: filepath.Base(p.path), Path: p.path}}
	if p.verified {
		out.Column = p.column
	}
	return out
}

// breakpointResolved handles Debugger.breakpointResolved of thread th.
func (s *Server) breakpointResolved(th *thread, e *debugger.ResolvedBreakpoint) {
	if p, bd := s.bps.resolved(th.id, e.BreakpointID, e.Location); p != nil {
		if s.verify(th, p, bd, e.Location) {
			s.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: s.dapBreakpoint(p)})
		}
	}
}

// verify marks p verified at loc, where its binding bd bound: its line
// and column are loc's, in the original source of a mapped binding. It is
// false when p was verified already, or a mapped location does not map
// back into p's file.
func (s *Server) verify(th *thread, p *bp, bd *binding, loc *debugger.Location) bool {
	at := s.location(th, loc)
	if bd.gen != "" && (!at.mapped || at.src == nil || at.src.Path != p.path) {
		return false
	}
	s.bps.mu.Lock()
	defer s.bps.mu.Unlock()
	if p.verified {
		return false
	}
	p.verified, p.message = true, ""
	p.line, p.column = at.line, at.column
	return true
}

func (s *Server) setBreakpoints(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.SetBreakpointsArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	path := a.Source.Path
	if path == "" {
		return nil, fmt.Errorf("setBreakpoints: source.path is required")
	}
	if _, err := s.inspector(); err != nil {
		return nil, err
	}
	s.bindMu.Lock()
	defer s.bindMu.Unlock()
	s.bps.mu.Lock()
	old := s.bps.byPath[path]
	delete(s.bps.byPath, path)
	var gone []*binding
	for _, p := range old {
		delete(s.bps.byID, p.id)
		for _, bd := range p.binds {
			delete(s.bps.byCDP, bindKey{bd.th, bd.cdpID})
			delete(s.bps.owner, bd)
			gone = append(gone, bd)
		}
	}
	s.bps.mu.Unlock()
	for _, bd := range gone {
		if th, err := s.threadByID(bd.th); err == nil {
			_, _ = call(ctx, th.c, debugger.RemoveBreakpoint, debugger.RemoveBreakpointParams{BreakpointID: bd.cdpID})
		}
	}
	threads := s.readyThreads()
	out := make([]godap.Breakpoint, 0, len(a.Breakpoints))
	added := make([]*bp, 0, len(a.Breakpoints))
	for _, sb := range a.Breakpoints {
		s.bps.mu.Lock()
		s.bps.next++
		p := &bp{id: s.bps.next, path: path, line: sb.Line, column: sb.Column, asked: sb}
		s.bps.byID[p.id] = p
		s.bps.mu.Unlock()
		cond, err := condition(p.id, sb)
		s.bps.mu.Lock()
		if err != nil {
			p.message = err.Error()
		}
		p.cond = cond
		s.bps.mu.Unlock()
		if err == nil {
			for _, th := range threads {
				s.bind(ctx, th, p)
			}
			s.bps.mu.Lock()
			if !p.verified && p.message == "" {
				p.message = "not bound yet: no loaded script is " + path
			}
			s.bps.mu.Unlock()
		}
		added = append(added, p)
		out = append(out, s.dapBreakpoint(p))
	}
	s.bps.mu.Lock()
	s.bps.byPath[path] = added
	s.bps.mu.Unlock()
	return godap.SetBreakpointsResponseBody{Breakpoints: out}, nil
}

// readyThreads are the threads whose breakpoints are set (bindMu held).
func (s *Server) readyThreads() []*thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*thread
	for _, th := range s.threads {
		if th.ready {
			out = append(out, th)
		}
	}
	return out
}

// bindAll sets every breakpoint in th (bindMu held).
func (s *Server) bindAll(ctx context.Context, th *thread) {
	for _, p := range s.bps.all() {
		if p.bindable() {
			s.bind(ctx, th, p)
		}
	}
}

// bind sets p in thread th: in its own file, and in each generated file
// whose loaded source map has p's file as a source (bindMu held).
func (s *Server) bind(ctx context.Context, th *thread, p *bp) {
	s.bindURL(ctx, th, p, p.path, p.asked.Line, p.asked.Column)
	s.preloadMaps(p.path)                                                         // outfiles.go
	for _, g := range s.maps.generatedFor(p.path, p.asked.Line, p.asked.Column) { // mapping.go
		s.bindURL(ctx, th, p, g.path, g.line, g.column)
	}
}

// bindURL sets one CDP breakpoint of p in thread th: in file at line and
// column (1-based; column 0: the line's first breakable place); file is
// p's own or a generated one (bindMu held). A binding already there is
// kept.
func (s *Server) bindURL(ctx context.Context, th *thread, p *bp, file string, line, column int) {
	gen := ""
	if file != p.path {
		gen = file
	}
	s.bps.mu.Lock()
	for _, bd := range p.binds {
		if bd.th == th.id && bd.gen == gen {
			s.bps.mu.Unlock()
			return
		}
	}
	s.bps.mu.Unlock()
	params := debugger.SetBreakpointByURLParams{LineNumber: int64(line - 1), URLRegex: urlPattern(file), Condition: p.cond}
	if column > 0 {
		col := int64(column - 1)
		params.ColumnNumber = &col
	}
	res, err := call(ctx, th.c, debugger.SetBreakpointByURL, params)
	if err != nil {
		s.bps.mu.Lock()
		if !p.verified && gen == "" {
			p.message = err.Error()
		}
		s.bps.mu.Unlock()
		return
	}
	bd := &binding{th: th.id, cdpID: res.BreakpointID, locs: res.Locations, gen: gen}
	s.bps.mu.Lock()
	p.binds = append(p.binds, bd)
	s.bps.byCDP[bindKey{th.id, bd.cdpID}] = bd
	s.bps.owner[bd] = p
	s.bps.mu.Unlock()
	for _, loc := range res.Locations {
		if s.verify(th, p, bd, loc) {
			break
		}
	}
}

// urlPattern matches the scripts of path: its file:// URL (how Node names
// CommonJS and ES modules) or the bare path, for path and its real path.
func urlPattern(path string) string { return urlPatternIn(platform.Host, path) }

// urlPatternIn is urlPattern for flavour f: where f folds case (Windows,
// macOS) the match ignores it, since the editor's spelling (VS Code writes
// c:\) need not be node's (C:\).
func urlPatternIn(f platform.Flavour, path string) string {
	paths := []string{path}
	if real, err := platform.RealPath(path); err == nil && real != path {
		paths = append(paths, real)
	}
	var alts []string
	for _, p := range paths {
		u := f.ToURL(p)
		alts = append(alts, regexp.QuoteMeta(u), regexp.QuoteMeta(p))
		// node's inspector names CommonJS scripts by its C++ URL spelling,
		// which leaves [ and ] as they are (url.pathToFileURL, ES modules,
		// encodes them)
		if raw := strings.NewReplacer("%5B", "[", "%5D", "]").Replace(u); raw != u {
			alts = append(alts, regexp.QuoteMeta(raw))
		}
	}
	pattern := "^(?:" + strings.Join(alts, "|") + ")$"
	if f.FoldCase {
		pattern = foldCase(pattern)
	}
	return pattern
}

// foldCase makes each ASCII letter of a quoted pattern match either case
// ([cC]): V8's regular expressions (JavaScript's) have no (?i) flag.
func foldCase(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern): // an escape stays whole
			b.WriteByte(c)
			i++
			b.WriteByte(pattern[i])
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			b.WriteString("[" + string(rune(c|0x20)) + string(rune(c&^0x20)) + "]")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (s *Server) setExceptionBreakpoints(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.SetExceptionBreakpointsArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	state := debugger.SetPauseOnExceptionsStateNone
	for _, f := range a.Filters {
		switch f {
		case "all":
			state = debugger.SetPauseOnExceptionsStateAll
		case "uncaught":
			if state == debugger.SetPauseOnExceptionsStateNone {
				state = debugger.SetPauseOnExceptionsStateUncaught
			}
		default:
			return nil, fmt.Errorf("setExceptionBreakpoints: unknown filter %q (uncaught, all)", f)
		}
	}
	if _, err := s.inspector(); err != nil {
		return nil, err
	}
	s.bindMu.Lock()
	defer s.bindMu.Unlock()
	s.mu.Lock()
	s.pauseOnExceptions = state
	s.mu.Unlock()
	for _, th := range s.readyThreads() {
		_, err := call(ctx, th.c, debugger.SetPauseOnExceptions, debugger.SetPauseOnExceptionsParams{State: state})
		if err != nil && !errors.Is(err, ErrClosed) && !errors.Is(err, errWorkerGone) {
			return nil, err
		}
		// A program that ended (a syntax error ends it before the client
		// configures) or a worker gone has nothing left to set it in.
	}
	return godap.SetExceptionBreakpointsResponseBody{}, nil
}

// itoa is strconv.Itoa (kept short for messages).
func itoa(n int) string { return strconv.Itoa(n) }
