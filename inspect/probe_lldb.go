// probe_lldb.go: the lldb probe (inspect/probe/lldb, joined) for compiled
// programs (C, C++, Rust) under lldb-dap. It runs in lldb's embedded
// Python, inside the debugger: it reads SBValue/SBType and the program's
// memory and never runs code in the program. It is defined once per
// debugger by an lldb `script` one-liner (the source as base64, executed
// into a private module, registered as an lldb command named after the
// slot); each call is that command with base64 JSON arguments, sent
// through lldb-dap's evaluate in the "repl" context (a leading backtick
// makes it a command). The answer is the command's result: lldb-dap
// returns it after the echoed command line, and never as program output.
//
// CodeLLDB (debug type "lldb", bridged from the editor) is not lldb-dap:
// its "repl" runs a command only in its console's commands mode, and then
// answers an empty result (the output goes to the Debug Console). Its
// "_command" context runs a command in the request's frame in every
// console mode and answers its output (CodeLLDB's handle_evaluate), so a
// CodeLLDB session gets that form, its frame from the request, and a
// failed command as an error (an unknown one: the probe is missing). The
// probe's command also keeps its answer out of the console that CodeLLDB
// tees a command's output into (entry.py).

package inspect

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// lldbSections are the lldb probe's sections, in the order they are joined.
var lldbSections = []string{"core.py", "resolve.py", "memory.py", "values.py", "btree.py", "rust_raw.py", "ndarray.py", "summary.py", "select.py", "entry.py"}

var lldbProbe = func() *probe {
	src := joinSources("probe/lldb", "_LIMITS = "+ProbeLimits.json()+"\n", lldbSections)
	return &probe{
		lang: Native, source: src, slot: slotName("dapscope_probe_", src),
		fns:         []string{"run", "summarize", "select"},
		evalContext: "repl",
		install:     lldbInstall,
		callExpr:    lldbCall,
		form:        lldbForm,
		evalFailed:  lldbFailed,
		decode:      lldbDecode,
		summaryType: lldbSummaryType,
	}
}()

// lldbInstall defines the probe's module and its command.
func lldbInstall(p *probe) string {
	src := base64.StdEncoding.EncodeToString([]byte(p.source))
	return fmt.Sprintf("`script import base64 as _b, sys as _s, types as _t; _m = _t.ModuleType(%q); "+
		"exec(compile(_b.b64decode(%q).decode('utf-8'), '<dapscope-lldb-probe>', 'exec'), _m.__dict__); "+
		"_s.modules[%q] = _m; globals()[%q] = _m; "+
		"lldb.debugger.HandleCommand('command script add -o -f %s.command %s')",
		p.slot, src, p.slot, p.slot, p.slot, p.slot)
}

// lldbCall runs the probe's command on argsJSON plus the frame id and
// the entry point (run or summarize). CodeLLDB's frame ids are handles, not
// lldb-dap's thread and frame indexes: its command runs in the request's
// frame, so none is sent.
func lldbCall(p *probe, t Target, fn string, frameID int, argsJSON string) string {
	var m map[string]any
	_ = json.Unmarshal([]byte(argsJSON), &m)
	if m == nil {
		m = map[string]any{}
	}
	if !codeLLDB(t) {
		m["frame_id"] = frameID
	}
	if fn != "run" {
		m["fn"] = fn
	}
	b, _ := json.Marshal(m)
	return "`" + p.slot + " " + base64.StdEncoding.EncodeToString(b)
}

// CodeLLDBDebugType is CodeLLDB's debug type in VS Code.
const CodeLLDBDebugType = "lldb"

// codeLLDB reports whether t is a session of CodeLLDB: a Target that
// names its editor's debug type (a bridged session) as CodeLLDB's.
func codeLLDB(t Target) bool {
	d, ok := t.(interface{ DebugType() string })
	return ok && d.DebugType() == CodeLLDBDebugType
}

// lldbForm sends a CodeLLDB session's commands in its "_command" context,
// without lldb-dap's backtick.
func lldbForm(t Target, req EvalRequest) EvalRequest {
	if codeLLDB(t) {
		req.Context = "_command"
		req.Expression = strings.TrimPrefix(req.Expression, "`")
	}
	return req
}

// lldbFailed reads CodeLLDB's error for an unknown command (the debugger
// lost the probe) as probeMissing.
func lldbFailed(err error) (string, bool) {
	if strings.Contains(err.Error(), "is not a valid command") {
		return probeMissing, true
	}
	return "", false
}

// lldbDecode reads the command's JSON line out of lldb-dap's answer (the
// echoed command first); a command lldb does not know is probeMissing.
func lldbDecode(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "{") {
			return line
		}
		if strings.Contains(line, "is not a valid command") {
			return probeMissing
		}
	}
	return s
}

// lldbSummaryType: an lldb-dap `type` whose value the summary improves in
// the editor's views: numbers in memory (Rust Vec, slices and arrays,
// std::vector and std::array, C arrays); the probe says which of them
// hold numbers.
func lldbSummaryType(t string) bool {
	for _, p := range []string{"alloc::vec::Vec<", "&[", "&mut [", "std::vector<", "std::__1::vector<", "std::array<", "std::__1::array<", "ndarray::ArrayBase<"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.HasSuffix(t, "]") && strings.Contains(t, "[") // double[100], [f64; 4]
}
