// This file drives the Python probe (probe.py, embedded) through debugpy:
// the probe's source is sent with the first inspection of a session and kept
// in the debuggee's sys.modules; every inspection is then ONE short evaluate
// whose result (one JSON string) is fetched with format.rawString so that
// debugpy does not truncate it.

package inspect

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

//go:embed probe.py
var probeSource string

// probeModule is the debuggee module name; it changes with the probe's
// source, so an updated sidecar never talks to a stale probe.
var probeModule = func() string {
	h := sha256.Sum256([]byte(probeSource))
	return "_dapscope_probe_" + hex.EncodeToString(h[:6])
}()

const probeMissing = "__dapscope_probe_missing__"

type valueFormat struct {
	RawString bool `json:"rawString,omitempty"`
}

// evaluateArgs is DAP's EvaluateArguments plus pydevd's rawString format.
type evaluateArgs struct {
	Expression string       `json:"expression"`
	FrameID    int          `json:"frameId,omitempty"`
	Context    string       `json:"context,omitempty"`
	Format     *valueFormat `json:"format,omitempty"`
}

type evaluateBody struct {
	Result             string `json:"result"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
}

// probeArgs is what the probe's run() receives.
type probeArgs struct {
	Path Path           `json:"path"`
	Opts map[string]any `json:"opts"`
}

func probeOptions(o Options) map[string]any {
	return map[string]any{
		"max_preview_rows":   o.MaxPreviewRows,
		"max_preview_items":  o.MaxPreviewItems,
		"include_statistics": o.IncludeStatistics == nil || *o.IncludeStatistics,
		"deep_memory":        o.DeepMemory,
		"timeout":            o.Timeout,
		"precision":          o.Precision,
	}
}

// ProbeArgsJSON is the JSON argument of the probe's run() for path and opts
// (exported for tests that run the probe outside a debugger).
func ProbeArgsJSON(path Path, o Options) string {
	b, _ := json.Marshal(probeArgs{Path: path, Opts: probeOptions(o)})
	return string(b)
}

// ProbeSource returns the probe's Python source.
func ProbeSource() string { return probeSource }

// probeExpression builds the evaluate expression that calls run().
func probeExpression(argsJSON string, install bool) string {
	return probeCall("run", argsJSON, install)
}

// probeCall builds the evaluate expression calling the probe's entry fn
// (run or summarize) with argsJSON; install sends the probe's source first.
// locals() and globals() are taken at the top level of the evaluated
// expression, i.e. in the frame.
func probeCall(fn, argsJSON string, install bool) string {
	a := strconv.QuoteToASCII(argsJSON)
	if !install {
		return fmt.Sprintf("(lambda m, L, G: m.%s(L, G, %s) if m is not None else %q)"+
			"(__import__('sys').modules.get(%q), locals(), globals())", fn, a, probeMissing, probeModule)
	}
	return fmt.Sprintf("(lambda L, G, m: (exec(compile(%s, '<dapscope-probe>', 'exec'), m.__dict__), "+
		"__import__('sys').modules.__setitem__(m.__name__, m), m.%s(L, G, %s))[2])"+
		"(locals(), globals(), __import__('types').ModuleType(%q))", strconv.QuoteToASCII(probeSource), fn, a, probeModule)
}

func inspectPython(ctx context.Context, t Target, frameID int, path Path, opts Options) (*Result, error) {
	body, err := callProbe(ctx, t, frameID, "run", ProbeArgsJSON(path, opts))
	if err != nil {
		return nil, err
	}
	res, err := DecodeProbeResult(body.Result)
	if err != nil {
		return nil, err
	}
	if res.Error != nil {
		return nil, res.Error
	}
	res.Source = "probe"
	if opts.Reference {
		res.VariablesReference = variablesReference(ctx, t, frameID, path.String())
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

// callProbe calls the probe's entry fn in the frame, sending the probe's
// source first when this session has not loaded it, and again when the
// debuggee lost it (a new process).
func callProbe(ctx context.Context, t Target, frameID int, fn, argsJSON string) (evaluateBody, error) {
	key := "inspect.probe." + probeModule
	_, loaded := t.Values().Load(key)
	body, err := evalProbeFn(ctx, t, frameID, fn, argsJSON, !loaded)
	if err == nil && body.Result == probeMissing {
		body, err = evalProbeFn(ctx, t, frameID, fn, argsJSON, true)
	}
	if err == nil {
		t.Values().Store(key, true)
	}
	return body, err
}

func evalProbeFn(ctx context.Context, t Target, frameID int, fn, argsJSON string, install bool) (evaluateBody, error) {
	var body evaluateBody
	err := t.Request(ctx, "evaluate", evaluateArgs{
		Expression: probeCall(fn, argsJSON, install),
		FrameID:    frameID,
		Context:    "repl",
		Format:     &valueFormat{RawString: true},
	}, &body)
	return body, err
}

// DecodeProbeResult parses the probe's JSON answer; numbers stay exact
// (json.Number) inside free-form cells.
func DecodeProbeResult(s string) (*Result, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, &Error{Code: CodeInternal, Message: "the probe did not answer with JSON: " + clip.Bytes.Head(s, 300)}
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "undecodable probe answer: " + err.Error()}
	}
	return &r, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
