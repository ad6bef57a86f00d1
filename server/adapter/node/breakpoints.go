// breakpoints.go: line breakpoints through Debugger.setBreakpointByUrl (a
// URL pattern matching the file's path and its file:// URL, so scripts
// loaded later bind too), their verified state and actual line (now, or
// later through Debugger.breakpointResolved and a DAP breakpoint event),
// conditions, hit conditions and logpoints (all compiled into the CDP
// condition), and the exception filters.

package node

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/debugger"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/platform"
)

// bp is one DAP breakpoint.
type bp struct {
	id       int
	path     string
	line     int // as asked (1-based)
	cdpID    debugger.BreakpointID
	locs     []*debugger.Location // where V8 bound it
	message  string               // why it is not verified
	verified bool
}

// breakpoints are the session's breakpoints, by file.
type breakpoints struct {
	mu     sync.Mutex
	byPath map[string][]*bp
	byCDP  map[debugger.BreakpointID]*bp
	next   int
}

func newBreakpoints() breakpoints {
	return breakpoints{byPath: map[string][]*bp{}, byCDP: map[debugger.BreakpointID]*bp{}}
}

// at is the breakpoint bound at loc's line in loc's script (nil: none).
func (b *breakpoints) at(loc *debugger.Location) *bp {
	if loc == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.byCDP {
		for _, l := range p.locs {
			if l.ScriptID == loc.ScriptID && l.LineNumber == loc.LineNumber {
				return p
			}
		}
	}
	return nil
}

// dapIDs maps hit CDP breakpoints to DAP ids.
func (b *breakpoints) dapIDs(ids []string) []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []int
	for _, id := range ids {
		if p, ok := b.byCDP[debugger.BreakpointID(id)]; ok {
			out = append(out, p.id)
		}
	}
	return out
}

// resolved records a location V8 bound a breakpoint to; it returns a
// copy of the breakpoint when it became verified (nil: nothing new).
func (b *breakpoints) resolved(id debugger.BreakpointID, loc *debugger.Location) *bp {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.byCDP[id]
	if !ok || loc == nil {
		return nil
	}
	p.locs = append(p.locs, loc)
	if p.verified {
		return nil
	}
	p.verified, p.message = true, ""
	p.line = int(loc.LineNumber) + 1
	c := *p
	return &c
}

func (s *Server) dapBreakpoint(p *bp) godap.Breakpoint {
	return godap.Breakpoint{Id: p.id, Verified: p.verified, Line: p.line, Message: p.message,
		Source: &godap.Source{Name: filepath.Base(p.path), Path: p.path}}
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
	c, err := s.inspector()
	if err != nil {
		return nil, err
	}
	s.bps.mu.Lock()
	old := s.bps.byPath[path]
	delete(s.bps.byPath, path)
	for _, p := range old {
		delete(s.bps.byCDP, p.cdpID)
	}
	s.bps.mu.Unlock()
	for _, p := range old {
		if p.cdpID != "" {
			_, _ = call(ctx, c, debugger.RemoveBreakpoint, debugger.RemoveBreakpointParams{BreakpointID: p.cdpID})
		}
	}
	pattern := urlPattern(path)
	out := make([]godap.Breakpoint, 0, len(a.Breakpoints))
	var added []*bp
	for _, sb := range a.Breakpoints {
		s.bps.mu.Lock()
		s.bps.next++
		p := &bp{id: s.bps.next, path: path, line: sb.Line}
		s.bps.mu.Unlock()
		cond, err := condition(p.id, sb)
		if err != nil {
			p.message = err.Error()
		} else {
			params := debugger.SetBreakpointByURLParams{LineNumber: int64(sb.Line - 1), URLRegex: pattern, Condition: cond}
			if sb.Column > 0 {
				col := int64(sb.Column - 1)
				params.ColumnNumber = &col
			}
			res, err := call(ctx, c, debugger.SetBreakpointByURL, params)
			switch {
			case err != nil:
				p.message = err.Error()
			case len(res.Locations) > 0:
				p.cdpID, p.locs, p.verified = res.BreakpointID, res.Locations, true
				p.line = int(res.Locations[0].LineNumber) + 1
			default:
				p.cdpID, p.message = res.BreakpointID, "not bound yet: no loaded script is "+path
			}
		}
		added = append(added, p)
		s.bps.mu.Lock()
		if p.cdpID != "" {
			s.bps.byCDP[p.cdpID] = p
		}
		out = append(out, s.dapBreakpoint(p))
		s.bps.mu.Unlock()
	}
	s.bps.mu.Lock()
	s.bps.byPath[path] = added
	s.bps.mu.Unlock()
	return godap.SetBreakpointsResponseBody{Breakpoints: out}, nil
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
		alts = append(alts, regexp.QuoteMeta(f.ToURL(p)), regexp.QuoteMeta(p))
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

// hitsKey is the registry key of the hit counters, in the debuggee.
const hitsKey = "Symbol.for('dapscope.hits')"

var hitRE = regexp.MustCompile(`^\s*(>=|>|==|===|<=|<|%)?\s*(\d+)\s*$`)

// condition compiles a breakpoint's condition, hit condition and log
// message into one CDP condition ("" when it has none). V8 pauses when it
// is truthy; a logpoint prints and is always falsy.
func condition(id int, sb godap.SourceBreakpoint) (string, error) {
	var parts []string
	if c := strings.TrimSpace(sb.Condition); c != "" {
		parts = append(parts, "("+c+"\n)")
	}
	if h := strings.TrimSpace(sb.HitCondition); h != "" {
		m := hitRE.FindStringSubmatch(h)
		if m == nil {
			return "", fmt.Errorf("hit condition %q: want N, >= N, > N, == N, < N, <= N or %% N", h)
		}
		op, n := m[1], m[2]
		count := fmt.Sprintf("((h) => (h[%d] = (h[%d] || 0) + 1))(globalThis[%s] ??= {})", id, id, hitsKey)
		switch op {
		case "", "==", "===":
			parts = append(parts, count+" === "+n)
		case "%":
			if n == "0" {
				return "", fmt.Errorf("hit condition %q: %% 0", h)
			}
			parts = append(parts, count+" % "+n+" === 0")
		default:
			parts = append(parts, count+" "+op+" "+n)
		}
	}
	if sb.LogMessage != "" {
		parts = append(parts, "(console.log("+template(sb.LogMessage)+"), false)")
	}
	return strings.Join(parts, " && "), nil
}

// template turns a log message with {expression} parts into a JavaScript
// template literal.
func template(msg string) string {
	var b strings.Builder
	b.WriteByte('`')
	depth := 0
	for _, r := range msg {
		switch {
		case r == '{' && depth == 0:
			b.WriteString("${")
			depth++
		case r == '{':
			b.WriteRune(r)
			depth++
		case r == '}' && depth == 1:
			b.WriteByte('}')
			depth--
		case r == '}' && depth > 1:
			b.WriteRune(r)
			depth--
		case depth == 0 && (r == '`' || r == '\\' || r == '$'):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	if depth > 0 {
		b.WriteByte('}')
	}
	b.WriteByte('`')
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
	c, err := s.inspector()
	if err != nil {
		return nil, err
	}
	if _, err := call(ctx, c, debugger.SetPauseOnExceptions, debugger.SetPauseOnExceptionsParams{State: state}); err != nil {
		return nil, err
	}
	return godap.SetExceptionBreakpointsResponseBody{}, nil
}

// itoa is strconv.Itoa (kept short for messages).
func itoa(n int) string { return strconv.Itoa(n) }
