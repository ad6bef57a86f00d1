// cmd_ray.go: `dapscope ray list|inspect` — Ray's paused tasks from the
// command line: list the tasks that wait in Ray's distributed debugger
// (breakpoint() with RAY_DEBUG=1, post-mortem with RAY_DEBUG_POST_MORTEM=1),
// and ask every one of them the same question at once: one table, a row
// per task (server/mcp/allprocs.go's). The cluster's token comes from
// --token-file, $RAY_AUTH_TOKEN or ~/.ray/auth_token, never an argument.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/ray"
	"github.com/dapscope/dapscope/server/session"
)

const rayUsage = `usage: dapscope ray list [--address URL|HOST:PORT] [--token-file FILE] [--format text|json]
       dapscope ray inspect EXPR... [--address URL|HOST:PORT] [--token-file FILE] [--format text|json] [--max-bytes N]

Ray tasks paused in Ray's distributed debugger (a breakpoint() in a task,
with RAY_DEBUG=1, Ray's default). --address is the cluster's dashboard
(http://127.0.0.1:8265, the default) or its GCS address (HOST:PORT, read
with --python's ray). "inspect" attaches every paused task, inspects each
EXPR in each task's frame at once, prints one table (a row per task), then
detaches: the tasks run on. A cluster on another host must be listed in
--attach-hosts.

Exit status: 0 done, 1 the cluster or a task failed, 2 bad usage.`

func runRay(ctx context.Context, args []string) int {
	return rayCLI(ctx, args, os.Stdout, os.Stderr)
}

type rayFlags struct {
	common    commonFlags
	address   string
	tokenFile string
	format    string
	maxBytes  int
}

func (r *rayFlags) register(fs *flag.FlagSet) {
	scratch := flag.NewFlagSet("", flag.ContinueOnError)
	r.common.register(scratch)
	for _, name := range []string{"workspace", "log-file", "log-level", "attach-hosts", "python"} {
		f := scratch.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	_ = fs.Set("log-level", "warn")
	fs.StringVar(&r.address, "address", "", "the cluster's dashboard URL or GCS HOST:PORT (default: $RAY_DASHBOARD_ADDRESS, else "+ray.DefaultDashboard+")")
	fs.StringVar(&r.tokenFile, "token-file", "", "file holding the cluster's token (default: $RAY_AUTH_TOKEN, $RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token)")
	fs.StringVar(&r.format, "format", "text", "output format: text or json")
	fs.IntVar(&r.maxBytes, "max-bytes", 8<<10, "inspect: fit each table into this many bytes")
}

func (r *rayFlags) options(mgr *session.Manager) ray.Options {
	return ray.Options{Address: r.address, TokenFile: r.tokenFile, AllowHosts: splitList(r.common.attach), Python: mgr.Options().Python}
}

func rayCLI(ctx context.Context, args []string, out, errw io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(errw, rayUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	fs := flag.NewFlagSet("ray "+args[0], flag.ContinueOnError)
	fs.SetOutput(errw)
	var r rayFlags
	r.register(fs)
	pos, rc := parseInterleaved(fs, args[1:])
	if rc >= 0 {
		return rc
	}
	if r.format != "text" && r.format != "json" {
		fmt.Fprintf(errw, "dapscope ray: --format text or json, not %q\n", r.format)
		return 2
	}
	switch args[0] {
	case "list":
		if len(pos) > 0 {
			fmt.Fprintf(errw, "dapscope ray list: unexpected arguments %q\n", pos)
			return 2
		}
		return rayList(ctx, &r, out, errw)
	case "inspect":
		if len(pos) == 0 {
			fmt.Fprintln(errw, "dapscope ray inspect: give an expression")
			return 2
		}
		return rayInspect(ctx, &r, pos, out, errw)
	}
	fmt.Fprintf(errw, "dapscope ray: unknown subcommand %q\n%s\n", args[0], rayUsage)
	return 2
}

func rayList(ctx context.Context, r *rayFlags, out, errw io.Writer) int {
	_, mgr, done, err := r.common.open() // the interpreter, as every command finds it
	if err != nil {
		fmt.Fprintln(errw, "dapscope ray list:", err)
		return 2
	}
	defer done()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	l, err := ray.List(ctx, r.options(mgr))
	if err != nil {
		fmt.Fprintln(errw, "dapscope ray list:", err)
		return 1
	}
	if r.format == "json" {
		b, _ := json.MarshalIndent(l, "", "  ")
		fmt.Fprintln(out, string(b))
		return 0
	}
	if len(l.Tasks) == 0 && len(l.Debugging) == 0 {
		fmt.Fprintf(out, "no task waits in Ray's debugger at %s\n", l.Dashboard)
		return 0
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKER\tPID\tDEBUGPY\tTASK\tSTATE")
	for _, t := range l.Tasks {
		state := "waits for a debugger"
		if t.Note != "" {
			state += ": " + t.Note
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", shortID(t.WorkerID), t.PID, t.Endpoint(), firstNonEmpty(t.Name, t.Function, "-"), state)
	}
	for _, t := range l.Debugging {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", shortID(t.WorkerID), t.PID, t.Endpoint(), firstNonEmpty(t.Name, "-"), "debugger attached (or the task ran on)")
	}
	_ = tw.Flush()
	return 0
}

func rayInspect(ctx context.Context, r *rayFlags, exprs []string, out, errw io.Writer) int {
	_, mgr, done, err := r.common.open()
	if err != nil {
		fmt.Fprintln(errw, "dapscope ray inspect:", err)
		return 2
	}
	defer done()
	actx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	at, err := ray.Attach(actx, mgr, r.options(mgr), nil)
	if err != nil {
		fmt.Fprintln(errw, "dapscope ray inspect:", err)
		return 1
	}
	defer func() { // detach: the tasks run on
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 20*time.Second)
		defer cancel()
		_ = at.Root.Terminate(tctx)
	}()
	for _, s := range at.Skipped {
		fmt.Fprintln(errw, "dapscope ray inspect: skipped", s)
	}
	for _, s := range at.Sessions {
		_, _ = s.Wait(actx, 30*time.Second) // each stops once attached
	}
	opts := inspect.Options{Format: "json"} // the table is the rendering
	var texts []string
	var tables []*allprocs.Table
	for _, expr := range exprs {
		t := allprocs.Run(ctx, allprocs.Sessions(at.Sessions), expr, nil, r.maxBytes, allprocs.Inspect(opts, expr))
		tables, texts = append(tables, t), append(texts, t.Text())
	}
	if r.format == "json" {
		b, _ := json.MarshalIndent(tables, "", "  ")
		fmt.Fprintln(out, string(b))
	} else {
		fmt.Fprintln(out, strings.Join(texts, "\n"))
	}
	return 0
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
