// cmd_inspect.go: `dapscope inspect PROGRAM:LINE EXPR...` — runs a program
// headless to a line, inspects each expression with the smart inspector,
// prints the results (tui, json or markdown) and ends the program. (The
// custom DAP request dapscope/inspect is in request_inspect.go.)

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/session"
)

const inspectUsage = `usage: dapscope inspect PROGRAM:LINE EXPR... [flags] [-- program args]
       dapscope inspect BINARY SOURCE:LINE EXPR... [--build 'cargo build'] [flags] [-- program args]

Runs PROGRAM (a .py file under debugpy, a .go file / package directory
under Delve, or a .js/.mjs/.cjs (or .ts: Node >= 22.6, see --node) file under dapscope's Node adapter, whose
values the JavaScript probe inspects) headless to LINE, inspects every EXPR there, prints the results
and ends the program. EXPR is a name or a path: df, self.cache,
data['train'], arr[0], obj.items[-1].

A compiled BINARY (C, C++, Rust) runs under lldb-dap (see --lldb-dap) to
SOURCE:LINE; its values are read by a probe inside lldb that never runs
code in the program (ptr@N reads N elements behind a pointer):
  dapscope inspect ./target/debug/prices src/main.rs:42 prices
--build runs a command (sh -c) in the workspace first.

Exit status: 0 all inspected, 1 the line was not reached or an inspection
failed, 2 bad usage.

flags:`

func runInspect(ctx context.Context, args []string) int { return inspectCLI(ctx, args, os.Stdout) }

func inspectCLI(ctx context.Context, args []string, out io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, inspectUsage)
		fs.PrintDefaults()
	}
	var c commonFlags
	c.register(fs)
	_ = fs.Set("log-level", "warn") // keep the output clean; --log-level overrides
	format := fs.String("format", "tui", "output format: tui, json or markdown")
	var f inspectFlags
	f.register(fs, "keep the table's rows where this holds: a DataFrame.query expression (Python) or a JavaScript expression over the row's fields (Node; run under V8's side-effect check), e.g. 'qty > 2'")
	frame := fs.Int("frame", 0, "frame depth to inspect in (0 = the frame at LINE)")
	wait := fs.Duration("wait", 60*time.Second, "how long to wait for LINE")
	build := fs.String("build", "", "a command that builds BINARY (run with sh -c in the workspace before the launch), e.g. 'cargo build'")
	allProcs := fs.Bool("all-processes", false, "inspect in every paused process of the program's tree (multiprocessing workers…): one table, a row per process")
	procs := fs.Int("processes", 1, "with --all-processes: how many processes must reach LINE first")

	var progArgs []string
	for i, a := range args {
		if a == "--" {
			args, progArgs = args[:i], args[i+1:]
			break
		}
	}
	// Flags may come before, between or after the positional arguments.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) < 2 {
		fs.Usage()
		return 2
	}
	binary := ""
	if _, _, isLine := fileLine(pos[0]); !isLine && len(pos) >= 3 {
		if _, _, ok := fileLine(pos[1]); ok {
			binary, pos = pos[0], pos[1:] // BINARY SOURCE:LINE EXPR...
		}
	}
	file, line, ok := fileLine(pos[0])
	if !ok {
		fmt.Fprintf(os.Stderr, "dapscope inspect: want PROGRAM:LINE or BINARY SOURCE:LINE, got %q\n", pos[0])
		return 2
	}
	exprs := pos[1:]
	opts, sel, width, err := f.read(*format)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope inspect:", err)
		return 2
	}
	_, mgr, done, err := c.open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	if *build != "" {
		if err := runBuild(ctx, mgr.Workspace(), *build); err != nil {
			fmt.Fprintln(os.Stderr, "dapscope inspect: --build:", err)
			return 1
		}
	}
	if *allProcs {
		return inspectAllProcesses(ctx, mgr, out, file, line, progArgs, exprs, opts, *f.maxBytes, *procs, *wait) // cmd_inspect_all.go
	}
	spec := launchSpecFor(mgr.Workspace(), file, line, progArgs)
	if binary != "" {
		spec = session.LaunchSpec{Adapter: string(adapter.LLDB), Program: binary, Args: progArgs,
			Breakpoints: []session.Breakpoint{{File: file, Line: line}}}
	}
	return inspectProgram(ctx, mgr, out, spec, file, line, exprs, *frame, opts, sel, width, *f.maxBytes, *wait)
}

// fileLine reads FILE:LINE.
func fileLine(s string) (string, int, bool) {
	file, lineStr, ok := cutLast(s, ":")
	line, err := strconv.Atoi(lineStr)
	return file, line, ok && err == nil && line >= 1 && file != ""
}

// runBuild runs --build's command with sh -c in dir, its output on stderr.
func runBuild(ctx context.Context, dir, command string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// rowsFlag is --rows: N preview rows, or OFFSET:LIMIT, a window of a
// table's rows.
type rowsFlag struct {
	preview int
	window  *inspect.RowWindow
}

func (r *rowsFlag) String() string {
	if r.window != nil {
		return fmt.Sprintf("%d:%d", r.window.Offset, r.window.Limit)
	}
	return strconv.Itoa(r.preview)
}

func (r *rowsFlag) Set(s string) error {
	if off, lim, ok := strings.Cut(s, ":"); ok {
		o, err1 := strconv.ParseInt(off, 10, 64)
		l, err2 := strconv.Atoi(lim)
		if err1 != nil || err2 != nil || o < 0 || l < 1 || l > inspect.MaxPageRows {
			return fmt.Errorf("want OFFSET:LIMIT with LIMIT 1..%d, got %q", inspect.MaxPageRows, s)
		}
		r.window = &inspect.RowWindow{Offset: o, Limit: l}
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want N or OFFSET:LIMIT, got %q", s)
	}
	r.preview = n
	return nil
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// launchSpecFor picks the adapter from the file's extension (.go → Delve
// on the package directory; .js/.mjs/.cjs → Node; anything else → the
// default, debugpy).
func launchSpecFor(workspace, file string, line int, args []string) session.LaunchSpec {
	kind, ok := adapter.KindForPath(file)
	if !ok {
		kind = adapter.Default
	}
	spec := session.LaunchSpec{Adapter: string(kind), Program: file, Args: args,
		Breakpoints: []session.Breakpoint{{File: file, Line: line}}}
	if kind == adapter.Dlv {
		spec.Program = filepath.Dir(file)
	}
	return spec
}

// launchForInspect launches spec for one inspect run; end terminates the
// run (its tree too) within 10 s, even after ctx is cancelled. A failed
// launch is reported on stderr.
func launchForInspect(ctx context.Context, mgr *session.Manager, spec session.LaunchSpec) (s *session.Session, end func(), ok bool) {
	s, err := mgr.Launch(ctx, spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dapscope inspect: launch:", err)
		return nil, nil, false
	}
	return s, func() {
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = s.Terminate(tctx)
	}, true
}

// inspectProgram is the testable body of `dapscope inspect`.
func inspectProgram(ctx context.Context, mgr *session.Manager, out io.Writer, spec session.LaunchSpec, file string, line int, exprs []string,
	depth int, opts inspect.Options, sel *inspect.Selection, width, maxBytes int, wait time.Duration) int {
	s, end, ok := launchForInspect(ctx, mgr, spec)
	if !ok {
		return 1
	}
	defer end()
	st, err := s.Wait(ctx, wait)
	if err != nil || st.Location == nil {
		why := "the program ended first"
		if st.Running {
			why = "still running after " + wait.String()
		}
		if err != nil {
			why = err.Error()
		}
		if o := s.Outcome(); o != nil && o.ErrorType != "" {
			why += fmt.Sprintf(" (%s: %s)", o.ErrorType, o.ErrorMessage)
		}
		fmt.Fprintf(os.Stderr, "dapscope inspect: %s:%d was never reached: %s\n", file, line, why)
		return 1
	}
	frameID := 0
	if depth > 0 {
		frameID, err = inspect.FrameAt(ctx, s, depth)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dapscope inspect:", err)
			return 1
		}
	}
	results, texts, code := inspectExprs(ctx, s, frameID, exprs, opts, sel, width, maxBytes)
	loc := st.Location
	header := fmt.Sprintf("stopped in %s at %s:%d\n\n", loc.Function, loc.File, loc.Line)
	if !printResults(out, results, texts, opts.Format, header) {
		return 1
	}
	return code
}

// inspectExprs inspects each expression in the frame (with the selection,
// if any, as a page of rows) and returns the results for JSON, the texts
// for tui and markdown, and the exit code (1 when one failed).
func inspectExprs(ctx context.Context, target inspect.Target, frameID int, exprs []string, opts inspect.Options, sel *inspect.Selection,
	width, maxBytes int) (results []any, texts []string, code int) {
	if sel != nil {
		// Statistics follow the selection's columns and filter, as MCP's
		// (statistics.rows: "filtered, 53 of 50,000").
		opts.StatsOf = sel
	}
	for _, expr := range exprs {
		res, err := inspect.Inspect(ctx, target, frameID, expr, opts)
		if err != nil {
			code = 1
			ie := errcode.From(err)
			results = append(results, &inspect.Result{Name: expr, Error: ie})
			texts = append(texts, inspect.FormatError(expr, ie, opts.Format, width))
			continue
		}
		var page *inspect.Page
		if sel != nil {
			pr, err := inspect.Browse(ctx, target, frameID, expr, *sel, opts)
			if err != nil {
				code = 1
				ie := errcode.From(err)
				results = append(results, &inspect.Result{Name: expr, Error: ie})
				texts = append(texts, inspect.FormatError(expr, ie, opts.Format, width))
				continue
			}
			page = pr.Page
			res.Preview = nil // the page is the rows asked for
		}
		if maxBytes > 0 {
			inspect.Fit(res, maxBytes)
		}
		if page != nil {
			results = append(results, struct {
				*inspect.Result
				Page *inspect.Page `json:"page"`
			}{res, page})
		} else {
			results = append(results, res)
		}
		if opts.Format != "json" {
			t, _ := inspect.Format(res, opts.Format, width)
			if page != nil {
				t += "\n" + inspect.FormatPage(page)
			}
			texts = append(texts, t)
		}
	}
	return results, texts, code
}

// printResults writes the results in the format; header precedes the tui
// texts. It reports whether the output could be written.
func printResults(out io.Writer, results []any, texts []string, format, header string) bool {
	switch format {
	case "json":
		b, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			fmt.Fprintln(os.Stderr, "dapscope:", err)
			return false
		}
		fmt.Fprintln(out, string(b))
	case "markdown":
		fmt.Fprintln(out, strings.Join(texts, "\n\n---\n\n"))
	default:
		fmt.Fprint(out, header)
		fmt.Fprintln(out, strings.Join(texts, "\n\n"))
	}
	return true
}
