// probe.go: the probe as one component. Each language's probe is a set of
// source sections (inspect/probe/python/*.py, inspect/probe/javascript/*.js)
// joined here, behind the LIMITS header (limits.go), into one source. A probe
// is installed once per debuggee under a slot named by the hash of that
// source (a new sidecar never talks to a stale probe), then every call is
// ONE evaluate of an entry point (run, summarize, select) with JSON
// arguments, answering one JSON string. What differs by language is how a
// call is written and how its answer is read (probe_python.go,
// probe_javascript.go); how the evaluate reaches the debuggee is the
// Transport's business (a DAP adapter, a Jupyter kernel).

package inspect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

// Language is the language of a debuggee as the inspector sees it: it picks
// the probe (or none) and the grammar of expressions.
type Language string

// The languages.
const (
	Python     Language = "python"
	JavaScript Language = "javascript"
	Go         Language = "go" // no probe: the DAP variables fallback
	// Native is a compiled program under lldb (C, C++, Rust): its probe
	// runs in lldb's Python, never in the program.
	Native Language = "native"
)

//go:embed probe/python/*.py probe/javascript/*.js probe/lldb/*.py
var probeFS embed.FS

// EvalRequest is one probe call as a Transport sends it.
type EvalRequest struct {
	FrameID    int
	Expression string
	// Context is the DAP evaluate context the probe's language needs for
	// its answer to come back whole ("repl" with RawString for pydevd,
	// "clipboard" for JavaScript adapters).
	Context   string
	RawString bool
	// SideEffectFree asks for V8's side-effect check (CDP's
	// throwOnSideEffect): the expression may read anything, and an
	// evaluation that could change the program is ended with an error
	// instead ("EvalError: Possible side-effect"). A browse filter runs so.
	// A transport that cannot check answers an error with code
	// NOT_SUPPORTED and evaluates nothing; the driver also makes sure once
	// per debuggee that the check is really made (sideeffect.go).
	SideEffectFree bool
}

// Transport evaluates a probe call in a frame (or a namespace) of a live
// program and returns its string result as the program has it. A Target
// that implements it is used as it is; any other Target is reached through
// a DAP evaluate request (with "throwOnSideEffect": true for a
// SideEffectFree request: dapscope's Node adapter and the bridge's CDP
// shortcut honour it, the bridge refuses it where it cannot).
type Transport interface {
	EvaluateProbe(ctx context.Context, req EvalRequest) (string, error)
}

// probe is one language's probe component.
type probe struct {
	lang   Language
	source string   // the joined source, LIMITS header first
	slot   string   // the name the debuggee keeps it under
	fns    []string // its entry points
	// evalContext and raw are what its evaluate asks of a DAP adapter.
	evalContext string
	raw         bool
	// expr writes the evaluate expression calling fn on roots (the names
	// the call reads in the frame) with argsJSON; install defines the
	// probe first.
	expr func(p *probe, fn string, roots []string, argsJSON string, install bool) string
	// decode reads the evaluate's answer into the probe's JSON text.
	decode func(string) string
	// evalError explains an evaluate that failed before the probe could
	// answer (nil: the error as it is).
	evalError func(err error, root string) error
	// frameNames lists the frame's names for VARIABLE_NOT_FOUND when the
	// probe cannot (JavaScript cannot enumerate a scope from inside).
	frameNames func(ctx context.Context, t Target, frameID int) []string
	// install, when set, is an evaluate that defines the probe on its own
	// (lldb: a Python module and a command); callExpr then writes each call
	// (with the frame id) instead of expr, and a call answers probeMissing
	// when the probe is not defined (probe_lldb.go).
	install  func(p *probe) string
	callExpr func(p *probe, t Target, fn string, frameID int, argsJSON string) string
	// form, when set, rewrites an evaluate for the target's adapter (lldb:
	// CodeLLDB's command form, probe_lldb.go); evalFailed may read a failed
	// evaluate as an answer (ok).
	form       func(t Target, req EvalRequest) EvalRequest
	evalFailed func(err error) (out string, ok bool)
	// listsLocals: summarize with no names summarises every local.
	listsLocals bool
	// summaryType reports an adapter `type` (of a variable in the editor's
	// views) whose value the probe's summary improves.
	summaryType func(t string) bool
}

// probeMissing is what a call answers when the debuggee lost the probe (a
// new process): the call is made again with the probe's source.
const probeMissing = "__dapscope_probe_missing__"

// joinSources joins the sections of dir, in order, after header; every
// file of dir must be listed (a section left out would be a silent hole).
func joinSources(dir, header string, order []string) string {
	ents, err := fs.ReadDir(probeFS, dir)
	if err != nil {
		panic(err)
	}
	if len(ents) != len(order) {
		panic(fmt.Sprintf("%s has %d files, the probe joins %d: list every section", dir, len(ents), len(order)))
	}
	var b strings.Builder
	b.WriteString(header)
	for _, name := range order {
		src, err := fs.ReadFile(probeFS, dir+"/"+name)
		if err != nil {
			panic(err)
		}
		b.WriteString("\n")
		b.Write(src)
	}
	return b.String()
}

// slotName is prefix plus the hash of the source.
func slotName(prefix, source string) string {
	h := sha256.Sum256([]byte(source))
	return prefix + hex.EncodeToString(h[:6])
}

// probeFor is the probe of a language, nil for none.
func probeFor(lang Language) *probe {
	switch lang {
	case Python:
		return pythonProbe
	case JavaScript:
		return jsProbe
	case Native:
		return lldbProbe
	}
	return nil
}

// has reports whether the probe has the entry point fn.
func (p *probe) has(fn string) bool {
	for _, f := range p.fns {
		if f == fn {
			return true
		}
	}
	return false
}

// call runs the probe's entry point fn in the frame and returns its JSON
// answer, sending the probe's source first when this session has not, and
// again when the debuggee lost it (a new process).
func (p *probe) call(ctx context.Context, t Target, frameID int, fn string, roots []string, argsJSON string) (string, error) {
	key := "inspect.probe." + p.slot
	_, loaded := t.Values().Load(key)
	var out string
	var err error
	if p.install != nil {
		out, err = p.callInstalled(ctx, t, frameID, fn, argsJSON, loaded)
	} else {
		out, err = p.eval(ctx, t, frameID, p.expr(p, fn, roots, argsJSON, !loaded))
		if err == nil && out == probeMissing {
			out, err = p.eval(ctx, t, frameID, p.expr(p, fn, roots, argsJSON, true))
		}
	}
	if err != nil {
		if p.evalError != nil && len(roots) > 0 {
			return "", p.evalError(err, roots[0])
		}
		return "", err
	}
	t.Values().Store(key, true)
	return out, nil
}

// probeCallKey marks the context of a probe call (IsProbeCall).
type probeCallKey struct{}

// IsProbeCall reports whether ctx is that of a probe call: a Target may
// send it as a request that changes nothing in the debuggee (the probe
// never mutates what it inspects), so it does not move the generation
// the probe's caches are keyed on (browse.go's valuesGen).
func IsProbeCall(ctx context.Context) bool { v, _ := ctx.Value(probeCallKey{}).(bool); return v }

// asProbeCall marks ctx as that of a probe call (IsProbeCall).
func asProbeCall(ctx context.Context) context.Context {
	return context.WithValue(ctx, probeCallKey{}, true)
}

// callInstalled is call for a probe defined by its own evaluate: defined
// first unless loaded, and again when the debugger lost it.
func (p *probe) callInstalled(ctx context.Context, t Target, frameID int, fn, argsJSON string, loaded bool) (string, error) {
	for try := 0; ; try++ {
		if !loaded {
			if _, err := p.eval(ctx, t, frameID, p.install(p)); err != nil {
				return "", err
			}
			loaded = true
		}
		out, err := p.eval(ctx, t, frameID, p.callExpr(p, t, fn, frameID, argsJSON))
		if err != nil || out != probeMissing || try > 0 {
			return out, err
		}
		loaded = false
	}
}

func (p *probe) eval(ctx context.Context, t Target, frameID int, expr string) (string, error) {
	ctx = asProbeCall(ctx)
	req := EvalRequest{FrameID: frameID, Expression: expr, Context: p.evalContext, RawString: p.raw}
	if p.form != nil {
		req = p.form(t, req)
	}
	out, err := transportOf(t).EvaluateProbe(ctx, req)
	if err != nil {
		if p.evalFailed != nil {
			if s, ok := p.evalFailed(err); ok {
				return s, nil
			}
		}
		return "", err
	}
	return p.decode(out), nil
}

// transportOf is the target's own Transport, or DAP evaluate requests.
func transportOf(t Target) Transport {
	if tr, ok := t.(Transport); ok {
		return tr
	}
	return dapTransport{t}
}

// dapTransport sends probe calls as DAP evaluate requests.
type dapTransport struct{ t Target }

type valueFormat struct {
	RawString bool `json:"rawString,omitempty"`
}

// evaluateArgs is DAP's EvaluateArguments plus pydevd's rawString format
// and dapscope's throwOnSideEffect (V8's side-effect check).
type evaluateArgs struct {
	Expression        string       `json:"expression"`
	FrameID           int          `json:"frameId,omitempty"`
	Context           string       `json:"context,omitempty"`
	Format            *valueFormat `json:"format,omitempty"`
	ThrowOnSideEffect bool         `json:"throwOnSideEffect,omitempty"`
}

type evaluateBody struct {
	Result             string `json:"result"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
}

// UnmarshalJSON decodes the body in one pass (jsontext's decoder: a probe's
// answer is kilobytes of escaped text, which encoding/json scans twice); a
// body that decoder refuses and encoding/json accepts (invalid UTF-8, which
// encoding/json replaces; a repeated name) is decoded as encoding/json does.
func (b *evaluateBody) UnmarshalJSON(data []byte) error {
	type plain evaluateBody
	var p plain
	if err := jsonv2.Unmarshal(data, &p); err != nil {
		return json.Unmarshal(data, (*plain)(b))
	}
	*b = evaluateBody(p)
	return nil
}

func (d dapTransport) EvaluateProbe(ctx context.Context, req EvalRequest) (string, error) {
	args := evaluateArgs{Expression: req.Expression, FrameID: req.FrameID, Context: req.Context, ThrowOnSideEffect: req.SideEffectFree}
	if req.RawString {
		args.Format = &valueFormat{RawString: true}
	}
	var body evaluateBody
	err := d.t.Request(ctx, "evaluate", args, &body)
	return body.Result, err
}

// probeArgs is what the probe's run() receives.
type probeArgs struct {
	Path Path           `json:"path"`
	Opts map[string]any `json:"opts"`
	Gen  *int           `json:"gen,omitempty"`
}

// probeOptions are the options every probe reads, by their JSON names.
func probeOptions(o Options) map[string]any {
	m := map[string]any{
		"max_preview_rows":   o.MaxPreviewRows,
		"max_preview_items":  o.MaxPreviewItems,
		"include_statistics": o.IncludeStatistics == nil || *o.IncludeStatistics,
		"deep_memory":        o.DeepMemory,
		"timeout":            o.Timeout,
		"precision":          o.Precision,
	}
	if o.Compute {
		m["compute"] = true
	}
	if sel := o.StatsOf; sel != nil && (len(sel.Columns) > 0 || sel.Filter != "") {
		m["stats_of"] = map[string]any{"columns": sel.Columns, "filter": sel.Filter}
	}
	return m
}

// ProbeArgsJSON is the JSON argument of the probe's run() for path and opts
// (exported for tests that run the probe outside a debugger).
func ProbeArgsJSON(path Path, o Options) string {
	b, _ := json.Marshal(probeArgs{Path: path, Opts: probeOptions(o)})
	return string(b)
}

// ProbeSource returns a language's joined probe source ("" for none).
func ProbeSource(lang Language) string {
	if p := probeFor(lang); p != nil {
		return p.source
	}
	return ""
}

// inspectProbe is an inspection by the language's probe: ONE call of run.
func inspectProbe(ctx context.Context, t Target, p *probe, frameID int, path Path, opts Options) (*Result, error) {
	root, _ := path[0].Value.(string)
	args := probeArgs{Path: path, Opts: probeOptions(opts)}
	if gen, ok := valuesGenOf(t); ok {
		// the probe keeps what it learnt of a value (a table's rows were
		// checked for getters) while the values are the same
		args.Gen = &gen
	}
	b, _ := json.Marshal(args)
	argsJSON := string(b)
	out, err := p.call(ctx, t, frameID, "run", []string{root}, argsJSON)
	if err != nil {
		return nil, err
	}
	res, err := DecodeProbeResult(out)
	if err != nil {
		return nil, err
	}
	if res.Error != nil {
		if p.frameNames != nil && res.Error.Code == errcode.VariableNotFound && len(path) == 1 && res.Error.AvailableVariables == nil {
			res.Error.AvailableVariables = p.frameNames(ctx, t, frameID)
		}
		return nil, res.Error
	}
	res.Source = "probe"
	if p.lang != Python {
		res.Language = string(p.lang)
	}
	if opts.Reference {
		res.VariablesReference = variablesReference(ctx, t, frameID, path.In(p.lang))
	}
	return res, nil
}

// variablesReference is the adapter's own handle for expr in the frame (a
// watch evaluate), so a client can expand the value natively; 0 if none.
func variablesReference(ctx context.Context, t Target, frameID int, expr string) int {
	var ref evaluateBody
	if err := t.Request(ctx, "evaluate", evaluateArgs{Expression: expr, FrameID: frameID, Context: "watch"}, &ref); err != nil {
		return 0
	}
	return ref.VariablesReference
}

// DecodeProbeResult parses a probe's JSON answer; numbers stay exact
// (json.Number) inside free-form cells.
func DecodeProbeResult(s string) (*Result, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, &errcode.Error{Code: errcode.Internal, Message: "the probe did not answer with JSON: " + clip.Bytes.Head(s, 300)}
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, &errcode.Error{Code: errcode.Internal, Message: "undecodable probe answer: " + err.Error()}
	}
	return &r, nil
}
