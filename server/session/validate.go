// validate.go: checks on everything an agent or the CLI can send, with
// typed errors naming the field. Paths are workspace-relative, never `..`,
// never a link (symbolic link, junction) leading out of the workspace, and
// must exist (in this system's path flavour: drive letters, `\`, case);
// lines are 1-based within the file; a node launch's runtime executable
// must be one.

package session

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/internal/safefile"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
)

// Limits on launch specs.
const (
	MaxArgs        = 20
	MaxArgLen      = 512
	MaxEnv         = 50
	MaxEnvKeyLen   = 64
	MaxEnvValueLen = 1024
	MaxSessions    = 1000
	// MaxBreakpoints bounds one request's breakpoints (a launch's, an
	// attach's, one file's set): V8 took 26 s for 2,000 on one file.
	MaxBreakpoints = 1000
)

// resolvePath turns a workspace-relative path into an absolute one inside
// the workspace. Absolute paths are accepted only when inside it.
func resolvePath(workspace, field, p string) (string, error) {
	return resolvePathIn(platform.Host, workspace, field, p)
}

// resolvePathIn is resolvePath for the paths of flavour f (the tests give
// other systems' flavours): drive letters and shares, either separator,
// and case folding where f folds it. Links are resolved by this system
// (platform.RealPath: symbolic links, and on Windows junctions too).
func resolvePathIn(f platform.Flavour, workspace, field, p string) (string, error) {
	if p == "" {
		return "", errcode.Invalid(field, "required")
	}
	if strings.ContainsRune(p, 0) {
		return "", errcode.Invalid(field, "contains a NUL byte")
	}
	if f.HasDotDot(p) {
		return "", errcode.Invalid(field, "%q must not contain '..'", p)
	}
	abs := p
	if !f.IsAbs(p) {
		if f.Windows && (f.Clean(p)[0] == '\\' || len(p) >= 2 && p[1] == ':') {
			// \x is on the current drive, C:x in C:'s current directory:
			// neither is under the workspace.
			return "", errcode.Invalid(field, "%q must be relative to the workspace, or absolute with its drive", p)
		}
		abs = f.Join(workspace, p)
	}
	abs = f.Clean(abs)
	if !f.Within(workspace, abs) {
		return "", errcode.Invalid(field, "%q is outside the workspace", p)
	}
	// Links are resolved before the check: a link inside the workspace
	// that points outside it is refused like the outside path.
	if real, err := platform.RealPath(abs); err == nil {
		root := workspace
		if r, err := platform.RealPath(workspace); err == nil {
			root = r
		}
		if !f.Within(root, real) {
			return "", errcode.Invalid(field, "%q is a link to %q, outside the workspace", p, real)
		}
	}
	return abs, nil
}

// existingFile resolves p and checks it is a regular file (or a directory
// when dirOK, for Go packages).
func existingFile(workspace, field, p string, dirOK bool) (string, error) {
	abs, err := resolvePath(workspace, field, p)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", errcode.Invalid(field, "%q does not exist", p)
	}
	if st.IsDir() && !dirOK {
		return "", errcode.Invalid(field, "%q is a directory", p)
	}
	return abs, nil
}

// maxLineCount bounds the bytes read to count a breakpoint file's lines.
const maxLineCount = 256 << 20

// countLines counts the lines of a file (a last line without newline
// counts): a regular file only (a FIFO would block), bounded by the bytes
// read (internal/safefile).
func countLines(path string) (int, error) {
	return safefile.CountLines(path, maxLineCount)
}

func validateBreakpoints(workspace string, bps []Breakpoint, field string) (map[string][]Breakpoint, error) {
	if len(bps) > MaxBreakpoints {
		return nil, &errcode.Error{Code: errcode.LimitExceeded, Field: field, Message: fmt.Sprintf(
			"at most %d breakpoints in one request (got %d): an adapter takes seconds for thousands (V8 about 13 ms each), past any request's timeout",
			MaxBreakpoints, len(bps))}
	}
	byFile := map[string][]Breakpoint{}
	lines := map[string]int{}
	for i, bp := range bps {
		f := field
		if field == "breakpoints" {
			f = "breakpoints[" + strconv.Itoa(i) + "]"
		}
		abs, err := existingFile(workspace, f+".file", bp.File, false)
		if err != nil {
			return nil, err
		}
		n, ok := lines[abs]
		if !ok {
			if n, err = countLines(abs); err != nil {
				return nil, errcode.Invalid(f+".file", "%v", err)
			}
			lines[abs] = n
		}
		if bp.Line < 1 || bp.Line > n {
			return nil, errcode.Invalid(f+".line", "line %d is outside %s (1..%d)", bp.Line, bp.File, n)
		}
		bp.File = abs
		byFile[abs] = append(byFile[abs], bp)
	}
	return byFile, nil
}

func validateArgsEnv(args []string, env map[string]string) error {
	if len(args) > MaxArgs {
		return errcode.Invalid("args", "at most %d arguments (got %d)", MaxArgs, len(args))
	}
	for i, a := range args {
		if len(a) > MaxArgLen {
			return errcode.Invalid("args["+strconv.Itoa(i)+"]", "longer than %d characters", MaxArgLen)
		}
	}
	if len(env) > MaxEnv {
		return errcode.Invalid("env", "at most %d entries (got %d)", MaxEnv, len(env))
	}
	for k, v := range env {
		if k == "" || len(k) > MaxEnvKeyLen || strings.ContainsAny(k, "=\x00") {
			return errcode.Invalid("env", "key %q must be 1..%d characters without '=' or NUL", clip.Bytes.Head(k, 80), MaxEnvKeyLen)
		}
		if len(v) > MaxEnvValueLen {
			return errcode.Invalid("env."+k, "value longer than %d characters", MaxEnvValueLen)
		}
	}
	return nil
}

// runtimeExecutable resolves a launch's runtime_executable for kind: node
// only; a bare name is looked up on PATH, a path with a slash is taken
// relative to the workspace. It must be an executable file.
func (m *Manager) runtimeExecutable(kind adapter.Kind, exe string) (string, error) {
	const field = "runtime_executable"
	if kind != adapter.Node {
		return "", errcode.Invalid(field, "is for the node adapter (this launch runs %s; its executable comes from the sidecar's flags)", kind)
	}
	if strings.ContainsAny(exe, string([]byte{'/', platform.Host.Separator()})) && !platform.Host.IsAbs(exe) {
		exe = platform.Host.Join(m.opts.Workspace, exe)
	}
	path, err := exec.LookPath(exe)
	if err != nil {
		return "", errcode.Invalid(field, "%q is not an executable (%v)", clip.Bytes.Head(exe, 200), errors.Unwrap(err))
	}
	return path, nil
}
