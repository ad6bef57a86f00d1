// cmd_kernel.go: `dapscope kernel list|inspect|vars` — live Jupyter
// kernels from the command line: list the kernels this user can reach,
// inspect expressions in a kernel's namespace with the smart inspector
// (the same results, formats, selection and byte budgets as `dapscope
// inspect`), and list its variables as one-line summaries. The command
// attaches a kernel session for its run and detaches at the end; the
// kernel goes on. A Jupyter Server's token comes from --token-file or
// $JUPYTER_TOKEN, never from an argument that logs would show.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

const kernelUsage = `usage: dapscope kernel list [--format text|json] [--server URL --token-file FILE]
       dapscope kernel inspect [--kernel ID|FILE|URL] EXPR... [--format tui|json|markdown]
                               [--columns C --rows OFFSET:LIMIT --sort KEYS --filter Q --max-bytes N] [--wait-ms N]
       dapscope kernel vars [--kernel ID|FILE|URL] [--all] [--format text|json]

Live Jupyter kernels. --kernel is a kernel id, a unique id prefix, a
connection file, or a Jupyter Server URL (http://HOST:PORT/[api/kernels/ID]);
with one running kernel it may be left out. --server URL reaches a Jupyter
Server's kernels; its token is read from --token-file (a file private to
you) or $JUPYTER_TOKEN. A server on another host must be listed in
--attach-hosts and use https. Nothing is left in the kernel: no name, no
history, no output in the notebook.

Exit status: 0 done, 1 a kernel or an expression failed, 2 bad usage.`

func runKernel(ctx context.Context, args []string) int {
	return kernelCLI(ctx, args, os.Stdout, os.Stderr)
}

// kernelFlags are the flags every kernel subcommand takes.
type kernelFlags struct {
	common     commonFlags
	ref        string
	server     string
	tokenFile  string
	runtimeDir string
	noProcs    bool
	format     string
	waitMs     int
}

func (k *kernelFlags) register(fs *flag.FlagSet, formatDefault string) {
	// Only the common flags a kernel command uses (-h listed the
	// debuggers' --python, --dlv, --node, --nodelay...); the others keep
	// their defaults.
	scratch := flag.NewFlagSet("", flag.ContinueOnError)
	k.common.register(scratch)
	for _, name := range []string{"workspace", "log-file", "log-level", "attach-hosts"} {
		f := scratch.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	_ = fs.Set("log-level", "warn")
	fs.StringVar(&k.ref, "kernel", "", "kernel id, id prefix, connection file or Jupyter Server URL (default: the only kernel running)")
	fs.StringVar(&k.server, "server", "", "a Jupyter Server URL: its kernels instead of the local ones")
	fs.StringVar(&k.tokenFile, "token-file", "", "file holding the Jupyter Server's token (default: $JUPYTER_TOKEN)")
	fs.StringVar(&k.runtimeDir, "runtime-dir", "", "Jupyter runtime directory to look in (default: $JUPYTER_RUNTIME_DIR or the platform's)")
	fs.BoolVar(&k.noProcs, "no-process-scan", false, "do not look for kernels among running processes")
	fs.StringVar(&k.format, "format", formatDefault, "output format")
	fs.IntVar(&k.waitMs, "wait-ms", 0, "while a cell runs, wait up to N ms for it to finish (default: answer at once that the kernel is busy)")
}

// listOptions is where local kernels are looked for.
func (k *kernelFlags) listOptions() kernel.ListOptions {
	return kernel.ListOptions{RuntimeDir: k.runtimeDir, NoProcesses: k.noProcs}
}

// attachSpec reads --kernel and --server into an attach.
func (k *kernelFlags) attachSpec() kernel.AttachSpec {
	spec := kernel.AttachSpec{Kernel: k.ref, ServerURL: k.server, TokenFile: k.tokenFile, List: k.listOptions(),
		Server: kernel.ServerOptions{AllowHosts: splitList(k.common.attach)}}
	if strings.HasPrefix(k.ref, "http://") || strings.HasPrefix(k.ref, "https://") {
		spec.Kernel, spec.ServerURL = "", k.ref
		if i := strings.Index(k.ref, "/api/kernels/"); i >= 0 {
			id := k.ref[i+len("/api/kernels/"):]
			if j := strings.IndexAny(id, "/?#"); j >= 0 {
				id = id[:j]
			}
			spec.ServerURL, spec.KernelID = k.ref[:i]+"/", id
		}
	}
	return spec
}

func kernelCLI(ctx context.Context, args []string, out, errw io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(errw, kernelUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "list":
		return kernelList(ctx, args[1:], out, errw)
	case "inspect":
		return kernelInspect(ctx, args[1:], out, errw)
	case "vars":
		return kernelVars(ctx, args[1:], out, errw)
	}
	fmt.Fprintf(errw, "dapscope kernel: unknown subcommand %q\n%s\n", args[0], kernelUsage)
	return 2
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, int) {
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0
			}
			return nil, 2
		}
		if fs.NArg() == 0 {
			return pos, -1
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
}

func kernelList(ctx context.Context, args []string, out, errw io.Writer) int {
	fs := flag.NewFlagSet("kernel list", flag.ContinueOnError)
	fs.SetOutput(errw)
	var k kernelFlags
	k.register(fs, "text")
	if pos, rc := parseInterleaved(fs, args); rc >= 0 || len(pos) > 0 {
		if len(pos) > 0 {
			fmt.Fprintf(errw, "dapscope kernel list: unexpected arguments %q\n", pos)
			return 2
		}
		return rc
	}
	if err := k.tokenInArgv(); err != nil {
		fmt.Fprintln(errw, "dapscope kernel list:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	ks, err := kernel.Kernels(ctx, k.serverRef(), k.listOptions())
	if err != nil {
		fmt.Fprintln(errw, "dapscope kernel list:", err)
		return 1
	}
	if k.format == "json" {
		b, _ := json.MarshalIndent(ks, "", "  ")
		fmt.Fprintln(out, string(b))
		return 0
	}
	if len(ks) == 0 {
		fmt.Fprintln(out, "no running kernels")
		return 0
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLANGUAGE\tSTATE\tPID\tWHERE")
	for _, x := range ks {
		state := x.State
		if x.Cell != nil && x.Cell.Known {
			state += fmt.Sprintf(" (In[%d])", x.Cell.ExecutionCount)
		}
		pid := ""
		if x.PID > 0 {
			pid = strconv.Itoa(x.PID)
		}
		where := x.Notebook
		if where == "" {
			where = x.ConnectionFile
		}
		if x.Error != "" {
			where += ": " + x.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", x.ID, x.Language, state, pid, where)
	}
	_ = tw.Flush()
	return 0
}

// tokenInArgv refuses a Jupyter Server URL that carries its token
// (?token=): on a command line it shows in ps and the shell's history.
func (k *kernelFlags) tokenInArgv() error {
	for _, u := range []string{k.server, k.ref} {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			continue
		}
		if q, err := url.Parse(u); err == nil && q.Query().Has("token") {
			return errors.New("the server URL carries a token, which a command line shows to everyone (ps, shell history): " +
				"drop ?token= and give it in a private --token-file or $JUPYTER_TOKEN")
		}
	}
	return nil
}

// serverRef is the Jupyter Server --server names (none without it), its
// token from --token-file or $JUPYTER_TOKEN.
func (k *kernelFlags) serverRef() kernel.ServerRef {
	return kernel.ServerRef{URL: k.server, TokenFile: k.tokenFile, Options: kernel.ServerOptions{AllowHosts: splitList(k.common.attach)}}
}

// attachKernel attaches a session for the command's run and waits for the
// namespace (or, with --wait-ms, for the running cell to finish). done
// detaches and closes the manager.
func attachKernel(ctx context.Context, k *kernelFlags, name string, errw io.Writer) (*session.Session, *kernel.Attached, func(), int) {
	if err := k.tokenInArgv(); err != nil {
		fmt.Fprintf(errw, "dapscope kernel %s: %v\n", name, err)
		return nil, nil, nil, 2
	}
	_, mgr, done, err := k.common.open()
	if err != nil {
		fmt.Fprintln(errw, err)
		return nil, nil, nil, 2
	}
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	at, err := kernel.AttachSession(actx, mgr, k.attachSpec())
	if err != nil {
		done()
		fmt.Fprintf(errw, "dapscope kernel %s: %v\n", name, err)
		return nil, nil, nil, 1
	}
	s := at.Session
	busy := func() error {
		if e := s.NotPaused(); e != nil {
			return e
		}
		return errors.New("a cell is running in the kernel")
	}
	var st session.Stop
	if at.Kernel.State == kernel.StateBusy && k.waitMs == 0 {
		err = busy() // say which cell, at once
	} else {
		// The namespace's stop comes at once when the kernel is idle.
		st, err = s.Wait(ctx, 5*time.Second+time.Duration(k.waitMs)*time.Millisecond)
		switch {
		case err != nil:
		case st.Running:
			err = fmt.Errorf("still running after --wait-ms %d: %w", k.waitMs, busy())
		case st.Exited:
			err = errors.New("the kernel session ended: " + outcomeText(s.Outcome()))
		}
	}
	if err != nil {
		done()
		fmt.Fprintf(errw, "dapscope kernel %s: %v\n", name, err)
		return nil, nil, nil, 1
	}
	return s, at, done, 0
}

func outcomeText(o *session.Outcome) string {
	if o == nil {
		return "unknown"
	}
	return strings.TrimSpace(o.ErrorType + " " + o.ErrorMessage)
}

func kernelInspect(ctx context.Context, args []string, out, errw io.Writer) int {
	fs := flag.NewFlagSet("kernel inspect", flag.ContinueOnError)
	fs.SetOutput(errw)
	var k kernelFlags
	k.register(fs, "tui")
	var f inspectFlags
	f.register(fs, "keep the table's rows where this DataFrame.query expression holds, e.g. 'qty > 2'")
	exprs, rc := parseInterleaved(fs, args)
	if rc >= 0 {
		return rc
	}
	if len(exprs) == 0 {
		fmt.Fprintln(errw, kernelUsage)
		return 2
	}
	opts, sel, width, err := f.read(k.format)
	if err != nil {
		fmt.Fprintln(errw, "dapscope kernel inspect:", err)
		return 2
	}
	s, at, done, rc := attachKernel(ctx, &k, "inspect", errw)
	if rc != 0 {
		return rc
	}
	defer done()
	results, texts, code := inspectExprs(ctx, s, 0, exprs, opts, sel, width, *f.maxBytes)
	loc := s.Info().Stop
	header := fmt.Sprintf("kernel %s", at.Kernel.ID)
	if loc != nil {
		header += ", " + loc.Function
	}
	if !printResults(out, results, texts, k.format, header+"\n\n") {
		return 1
	}
	return code
}

func kernelVars(ctx context.Context, args []string, out, errw io.Writer) int {
	fs := flag.NewFlagSet("kernel vars", flag.ContinueOnError)
	fs.SetOutput(errw)
	var k kernelFlags
	k.register(fs, "text")
	all := fs.Bool("all", false, "also IPython's own names, modules, functions and classes")
	if pos, rc := parseInterleaved(fs, args); rc >= 0 || len(pos) > 0 {
		if len(pos) > 0 {
			fmt.Fprintf(errw, "dapscope kernel vars: unexpected arguments %q\n", pos)
			return 2
		}
		return rc
	}
	s, _, done, rc := attachKernel(ctx, &k, "vars", errw)
	if rc != 0 {
		return rc
	}
	defer done()
	items, err := inspect.SummariesWith(ctx, s, 0, nil, inspect.SummaryOptions{Timeout: 2 * time.Second, All: *all})
	if err != nil {
		fmt.Fprintln(errw, "dapscope kernel vars:", errcode.From(err))
		return 1
	}
	type variable struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Kind    string `json:"kind"`
		Summary string `json:"summary"`
		Error   string `json:"error,omitempty"`
	}
	vars := []variable{}
	for _, it := range items {
		v := variable{Name: it.Name, Type: kernel.ShortType(it.Type), Kind: it.Kind, Summary: it.Line()}
		if it.Error != "" || it.Skipped != "" {
			v.Error = it.Error + it.Skipped
		}
		vars = append(vars, v)
	}
	if k.format == "json" {
		b, _ := json.MarshalIndent(vars, "", "  ")
		fmt.Fprintln(out, string(b))
		return 0
	}
	if len(vars) == 0 {
		fmt.Fprintln(out, "no variables")
		return 0
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, v := range vars {
		text := v.Summary
		if v.Error != "" {
			text = "(not read: " + v.Error + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Name, v.Type, text)
	}
	_ = tw.Flush()
	return 0
}
