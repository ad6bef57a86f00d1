// loaderror.go: a program that never ran its first statement (a syntax
// error, a TypeScript construct type stripping cannot erase, an ES module
// import that does not resolve). V8 does not pause for these: node prints
// the error on stderr and exits. The adapter keeps that stderr until the
// program starts and, when node exits without having started, sends the
// error parsed from it as a LoadErrorEvent before exited, so a session's
// outcome names the error and its line.

package node

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/platform"
)

// LoadErrorEvent is the event name of a load error (dapscope's own: the
// session reads it into the outcome; editors ignore unknown events).
const LoadErrorEvent = "dapscopeLoadError"

// LoadError is the body of a LoadErrorEvent.
type LoadError struct {
	ErrorType string `json:"errorType"`      // "SyntaxError"
	Code      string `json:"code,omitempty"` // node's error code ("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX")
	Message   string `json:"message"`        // "Unexpected token ';'"
	Path      string `json:"path,omitempty"` // the file of the error ("" when node names only its internals)
	Line      int    `json:"line,omitempty"` // 1-based
	Text      string `json:"text"`           // node's own report: location, source line, caret, error and stack
}

// maxLoadStderr bounds the stderr kept until the program starts.
const maxLoadStderr = 16 << 10

var (
	// loadWhere is node's first line of a fatal error: "PATH:LINE", the
	// path a file URL or absolute (/x, C:\x, \\server\share\x).
	loadWhere = regexp.MustCompile(`^((?:file://)?(?:/|[A-Za-z]:[\\/]|\\\\).*):(\d+)$`)
	// loadError is the error's own line: "SyntaxError [CODE]: message".
	loadErrLine = regexp.MustCompile(`^((?:[A-Z][A-Za-z]*)?Error|[A-Z][A-Za-z]*Exception)(?: \[([A-Z0-9_]+)\])?: (.*)$`)
)

// parseLoadError reads node's report of a fatal error from its stderr.
func parseLoadError(stderr string) (LoadError, bool) {
	lines := strings.Split(strings.ReplaceAll(stderr, "\r\n", "\n"), "\n")
	var le LoadError
	start, end := -1, len(lines)
	for i, l := range lines {
		if m := loadWhere.FindStringSubmatch(l); m != nil && start < 0 {
			le.Path = m[1]
			if p, ok := platform.Host.FromURL(m[1]); ok {
				le.Path = p
			}
			le.Line, _ = strconv.Atoi(m[2])
			start = i
		}
		if m := loadErrLine.FindStringSubmatch(l); m != nil && le.ErrorType == "" {
			le.ErrorType, le.Code, le.Message = m[1], m[2], m[3]
			if start < 0 {
				start = i
			}
		}
		if strings.HasPrefix(l, "Node.js v") {
			end = i
			break
		}
	}
	if le.ErrorType == "" {
		return LoadError{}, false
	}
	le.Text = strings.TrimSpace(strings.Join(lines[start:end], "\n"))
	return le, true
}

// noteStderr keeps a line of stderr while the program has not started.
func (p *process) noteStderr(line string) {
	if p.started.Load() {
		return
	}
	p.stderrMu.Lock()
	defer p.stderrMu.Unlock()
	if p.stderr.Len()+len(line) <= maxLoadStderr {
		p.stderr.WriteString(line)
	}
}

// loadError is the error node printed when it exited without starting
// the program; ok is false when it started, exited cleanly, or printed
// nothing that reads as an error.
func (p *process) loadError() (LoadError, bool) {
	if p.started.Load() || p.exitCode() == 0 {
		return LoadError{}, false
	}
	p.stderrMu.Lock()
	defer p.stderrMu.Unlock()
	return parseLoadError(p.stderr.String())
}
