// conditions.go: a breakpoint's condition, hit condition and log message,
// compiled into one CDP condition (V8 pauses when it is truthy; a logpoint
// prints and is always falsy). V8 treats a condition that throws as false
// and says nothing, so each part runs in a try/catch that reports what it
// threw through a Runtime binding (once per breakpoint and error, however
// often it runs): the adapter then says so as a notice naming the
// breakpoint, on the breakpoint itself (its message), and as a
// BreakpointErrorEvent the session puts into its next stop or outcome.

package node

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

// errBinding is the Runtime binding a condition reports its error with.
const errBinding = "__dapscopeBreakpointError"

// BreakpointErrorEvent is the event name of a breakpoint whose condition,
// hit condition or log message threw (dapscope's own: the session reads
// it; editors ignore unknown events).
const BreakpointErrorEvent = "dapscopeBreakpointError"

// BreakpointError is the body of a BreakpointErrorEvent.
type BreakpointError struct {
	ID    int    `json:"id"`             // the DAP breakpoint id
	Path  string `json:"path"`           // the file it was set in
	Line  int    `json:"line"`           // 1-based
	Kind  string `json:"kind"`           // "condition", "hit condition" or "log message"
	Error string `json:"error"`          // "ReferenceError: bestt is not defined"
	Note  string `json:"note,omitempty"` // what the breakpoint did instead
}

// hitsKey is the registry key of the hit counters, in the debuggee.
const hitsKey = "Symbol.for('dapscope.hits')"

// reportedKey is the registry key of the errors already reported.
const reportedKey = "Symbol.for('dapscope.bperr')"

var hitRE = regexp.MustCompile(`^\s*(>=|>|==|===|<=|<|%)?\s*(\d+)\s*$`)

// guard runs expr and, when it throws, reports the error (kind names the
// part) and evaluates to otherwise.
func guard(id int, kind, expr, otherwise string) string {
	report := fmt.Sprintf(`const m = e instanceof Error ? e.name + ": " + e.message : (typeof e === "object" && e !== null) ? "a thrown object" : String(e);`+
		` const r = (globalThis[%s] ??= {}); const k = %q + %d;`+
		` if (r[k] !== m) { r[k] = m; globalThis[%q]?.(JSON.stringify({id: %d, kind: %q, error: m})); }`,
		reportedKey, kind, id, errBinding, id, kind)
	return "(() => { try { return (" + expr + "\n); } catch (e) { try { " + report + " } catch {} return " + otherwise + "; } })()"
}

// condition compiles a breakpoint's condition, hit condition and log
// message into one CDP condition ("" when it has none).
func condition(id int, sb godap.SourceBreakpoint) (string, error) {
	var parts []string
	if c := strings.TrimSpace(sb.Condition); c != "" {
		parts = append(parts, guard(id, "condition", c, "false"))
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
			count += " === " + n
		case "%":
			if n == "0" {
				return "", fmt.Errorf("hit condition %q: %% 0", h)
			}
			count += " % " + n + " === 0"
		default:
			count += " " + op + " " + n
		}
		parts = append(parts, guard(id, "hit condition", count, "false"))
	}
	if sb.LogMessage != "" {
		parts = append(parts, guard(id, "log message", "console.log("+template(sb.LogMessage)+"), false", "false"))
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

// bindingCalled handles Runtime.bindingCalled: a breakpoint's condition,
// hit condition or log message threw.
func (s *Server) bindingCalled(th *thread, params []byte) {
	var e struct {
		Name    string `json:"name"`
		Payload string `json:"payload"`
	}
	if !decode(params, &e) || e.Name != errBinding {
		return
	}
	var r struct {
		ID    int    `json:"id"`
		Kind  string `json:"kind"`
		Error string `json:"error"`
	}
	if !decode([]byte(e.Payload), &r) {
		return
	}
	s.bps.mu.Lock()
	p := s.bps.byID[r.ID]
	var be BreakpointError
	if p != nil {
		be = BreakpointError{ID: p.id, Path: p.path, Line: p.line, Kind: r.Kind, Error: r.Error}
		switch r.Kind {
		case "log message":
			be.Note = "nothing was logged"
		default:
			be.Note = "it counts as false: the breakpoint does not stop"
		}
		p.message = fmt.Sprintf("%s threw %s (%s)", r.Kind, r.Error, be.Note)
	}
	s.bps.mu.Unlock()
	if p == nil {
		return // a breakpoint removed since
	}
	where := filepath.Base(p.path) + ":" + strconv.Itoa(be.Line)
	if th.id != ThreadID {
		where += " in " + th.name
	}
	s.output("important", fmt.Sprintf("dapscope: breakpoint %d at %s: its %s threw %s; %s\n", p.id, where, r.Kind, r.Error, be.Note))
	s.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: s.dapBreakpoint(p)})
	s.event(BreakpointErrorEvent, be)
}
