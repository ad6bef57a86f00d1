// parse_ts.go indexes TypeScript: Node's own type stripper
// (module.stripTypeScriptTypes in 'strip' mode, which replaces every type
// with whitespace and so keeps each line and column) runs as ONE
// subprocess per (re)index batch, the embedded ts_strip_helper.js, like
// the Python helper (a time bound, stderr capped, killed with the index's
// context, NODE_OPTIONS dropped); the stripped JavaScript is then parsed
// in process by parse_js.go. Syntax strip mode refuses (enum, namespace,
// parameter properties) and TSX leave the file out of the graph with the
// reason in its record.

package code

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
)

//go:embed ts_strip_helper.js
var tsHelper string

type tsInput struct {
	Path string `json:"p"`
	Src  string `json:"src"`
}

type tsOutput struct {
	Path string `json:"p"`
	Code string `json:"code"`
	Err  string `json:"err"`
}

// stripTypeScriptBatch strips the types of every input with one node
// process and returns the answers by path. A failure of the helper itself
// (no node, a node without stripTypeScriptTypes) is returned as an error
// that names the limitation.
func stripTypeScriptBatch(ctx context.Context, node string, inputs []tsInput) (map[string]*tsOutput, error) {
	if len(inputs) == 0 {
		return map[string]*tsOutput{}, nil
	}
	if node == "" {
		node = "node"
	}
	exe, err := exec.LookPath(node)
	if err != nil {
		return nil, fmt.Errorf("TypeScript needs Node >= 22.13 or 23.2 to strip types: no %q found", node)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--no-warnings", "-e", tsHelper)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NODE_OPTIONS=") { // could --require any file
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Dir = os.TempDir()
	out, run, err := runBatch(ctx, cancel, cmd, inputs, func(o *tsOutput) string { return o.Path })
	if err != nil {
		return nil, fmt.Errorf("start %s for TypeScript: %w", exe, err)
	}
	if ee, ok := run.waitErr.(*exec.ExitError); ok && ee.ExitCode() == 3 && run.stderr != "" {
		return nil, fmt.Errorf("TypeScript not indexed: %s", run.stderr)
	}
	if run.readErr != nil || run.waitErr != nil {
		return nil, fmt.Errorf("TypeScript type stripper (%s): %v %v (stderr: %s)", exe, run.readErr, run.waitErr, run.stderr)
	}
	if run.writeErr != nil {
		return nil, fmt.Errorf("TypeScript type stripper input: %w", run.writeErr)
	}
	return out, nil
}

// parseTypeScript strips and parses a batch of TypeScript records. When
// the stripper is unavailable every record says why and is parsed again
// on the next Open (its hash is cleared).
func (ix *Index) parseTypeScript(ctx context.Context, recs map[string]*fileRec, inputs []tsInput) error {
	if len(inputs) == 0 {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, ix.opts.ParseTimeout)
	outs, err := stripTypeScriptBatch(pctx, ix.opts.Node, inputs)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		slog.Warn("code index: TypeScript files not indexed", "err", err)
	}
	for p, fr := range recs {
		o := outs[p]
		switch {
		case o == nil:
			fr.Err = "TypeScript type stripper gave no answer"
			if err != nil {
				fr.Err = firstLine(err.Error())
			}
			fr.Hash = "" // never reused: parse again next time
		case o.Err != "":
			fr.Err = o.Err
		default:
			parseJSGuarded(fr, o.Code) // parse_guard.go
		}
	}
	return nil
}
