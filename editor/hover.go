// This file holds textDocument/hover: when a session is paused in a frame of
// the hovered file, the expression under the cursor is inspected in that
// frame and answered with a short markdown summary; otherwise null, fast
// (no DAP traffic when nothing is paused). The markdown is inspect.Format's.

package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	godap "github.com/google/go-dap"
	"go.lsp.dev/protocol"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/session"
)

// hoverOptions keep hovers small and quick.
var hoverOptions = inspect.Options{MaxPreviewRows: 3, MaxPreviewItems: 5, Timeout: 1, RequestTimeout: 4}

// pausedTarget is a paused session with a way to list its frames.
type pausedTarget struct {
	target inspect.Target
	frames func(ctx context.Context) ([]godap.StackFrame, error)
	// top (nil: none) is the top frame known without a request (a bridged
	// session's, from the editor's own stackTrace of the stop).
	top func() (godap.StackFrame, bool)
}

// pausedTargets lists paused sessions, the active one first.
func (s *Server) pausedTargets() []pausedTarget {
	var out []pausedTarget
	active := s.mgr.Active()
	for _, ss := range s.mgr.List() {
		if _, ok := ss.Paused(); !ok || ss.Bridged() {
			continue // a bridged session is served as such, below
		}
		ss := ss
		pt := pausedTarget{target: ss, frames: func(ctx context.Context) ([]godap.StackFrame, error) { return ss.StackTrace(ctx, 0, 50) }}
		if ss.ID() == active {
			out = append([]pausedTarget{pt}, out...)
		} else {
			out = append(out, pt)
		}
	}
	for _, b := range s.bridge.List() {
		tid, ok := b.Paused()
		if !ok {
			continue
		}
		out = append(out, pausedTarget{target: b, frames: func(ctx context.Context) ([]godap.StackFrame, error) {
			var body godap.StackTraceResponseBody
			err := b.Request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: tid, Levels: 50}, &body)
			return body.StackFrames, err
		}, top: b.KnownTopStackFrame})
	}
	return out
}

// samePath reports whether two frame or document paths name one file, in
// this system's way (case on Windows and macOS, links).
func samePath(a, b string) bool { return samePathIn(platform.Host, a, b) }

func samePathIn(f platform.Flavour, a, b string) bool {
	return f.Same(bridge.LocalPathIn(f, a), bridge.LocalPathIn(f, b))
}

// docFile is the file of a document URI ("" when it is not a file:
// untitled:, another scheme).
func docFile(u protocol.DocumentURI) string {
	p, _ := platform.Host.FromURL(string(u))
	return p
}

func (s *Server) hover(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	targets := s.pausedTargets()
	if len(targets) == 0 {
		return nil, nil // nothing paused: answer at once
	}
	text, ok := s.docs.get(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	line, ok := lineOf(text, int(p.Position.Line))
	if !ok {
		return nil, nil
	}
	expr, start, end, ok := ExpressionAt(line, utf16ToRune(line, int(p.Position.Character)))
	if !ok {
		s.log.Debug("hover: no expression under the cursor", "line", p.Position.Line, "character", p.Position.Character)
		return nil, nil
	}
	file := docFile(p.TextDocument.URI)
	if file == "" {
		return nil, nil
	}
	for _, t := range targets {
		frameID, found := s.hoverFrame(ctx, t, file)
		if !found {
			continue // this session is not stopped in the hovered file
		}
		t0 := time.Now()
		res, err := inspect.Inspect(ctx, t.target, frameID, expr, hoverOptions)
		if err != nil {
			if ie := errcode.As(err); ie != nil && (ie.Code == errcode.VariableNotFound || ie.Code == errcode.InvalidExpression || ie.Code == errcode.NotPaused) {
				s.log.Debug("hover: not inspectable", "expr", expr, "code", ie.Code)
				return nil, nil
			}
			s.log.Warn("hover: inspection failed", "expr", expr, "err", err)
			return nil, nil
		}
		md, err := inspect.Format(res, "markdown", 0)
		if err != nil {
			s.log.Warn("hover: markdown", "err", err)
			return nil, nil
		}
		md += "\n\n" + openLink(expr)
		s.log.Info("hover", "expr", expr, "ms", float64(time.Since(t0).Microseconds())/1000, "type", res.DetectedType)
		ln := p.Position.Line
		return &protocol.Hover{
			Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md},
			Range: &protocol.Range{
				Start: protocol.Position{Line: ln, Character: uint32(runeToUTF16(line, start))},
				End:   protocol.Position{Line: ln, Character: uint32(runeToUTF16(line, end))},
			},
		}, nil
	}
	return nil, nil
}

// hoverFrame is the frame of a paused target in the hovered file: its top
// frame when known without a request, else the first of its stack there.
func (s *Server) hoverFrame(ctx context.Context, t pausedTarget, file string) (int, bool) {
	if t.top != nil {
		if f, ok := t.top(); ok && f.Source != nil && samePath(f.Source.Path, file) {
			return f.Id, true
		}
	}
	frames, err := t.frames(ctx)
	if err != nil {
		s.log.Debug("hover: stackTrace failed", "err", err)
		return 0, false
	}
	// Frame ids may start at 0 (js-debug numbers its first frame 0).
	for _, f := range frames {
		if f.Source != nil && samePath(f.Source.Path, file) {
			return f.Id, true
		}
	}
	var paths []string
	for _, f := range frames {
		if f.Source != nil {
			paths = append(paths, f.Source.Path)
		}
	}
	s.log.Debug("hover: no frame in the hovered file", "file", file, "frames", paths)
	return 0, false
}

var _ inspect.Target = (*session.Session)(nil)

// openLink is the hover's link to the webview for expr: a VS Code command
// URI whose argument is the JSON array [expr], percent-encoded as
// encodeURIComponent does (the extension trusts this one command only).
func openLink(expr string) string {
	arg, _ := json.Marshal([]string{expr})
	var b strings.Builder
	for _, c := range []byte(string(arg)) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return "[Open in dapscope](command:dapscope.inspectExpression?" + b.String() + " \"Open the dapscope view of " + strings.ReplaceAll(expr, `"`, "'") + "\")"
}
