// cmd_code.go is the `dapscope code` subcommand: `code inspect` answers what
// a symbol or file is and how it connects, from the code index under
// <repo>/.dapscope/ (see inspect/code and docs/code.md).

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/code"
)

// runCodeCmd runs `dapscope code` on the process's stdout and stderr.
func runCodeCmd(ctx context.Context, args []string) int {
	return runCode(ctx, args, os.Stdout, os.Stderr)
}

const codeUsage = `usage: dapscope code inspect (--symbol S | --path P [--line N]) [--json] [--full] [--repo DIR] [--max-neighbors N] [--verbose]`

func runCode(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "inspect" {
		fmt.Fprintln(stderr, codeUsage)
		return 2
	}
	fs := flag.NewFlagSet("code inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	symbol := fs.String("symbol", "", "symbol to inspect (pkg.module.Class.method, Go pkg.Func)")
	path := fs.String("path", "", "repo-relative file to inspect")
	line := fs.Int("line", 0, "with --path: inspect the innermost definition covering this line")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	full := fs.Bool("full", false, "include the whole file")
	repo := fs.String("repo", ".", "repository root")
	maxN := fs.Int("max-neighbors", 0, "bound on every relationship list (default 3)")
	verbose := fs.Bool("verbose", false, "log index activity (files parsed, timings) to stderr")
	fs.Usage = func() { fmt.Fprintln(stderr, codeUsage); fs.PrintDefaults() }
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dapscope code inspect: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *symbol == "" && *path == "" {
		fmt.Fprintln(stderr, "dapscope code inspect: give --symbol or --path")
		fmt.Fprintln(stderr, codeUsage)
		return 2
	}
	if *verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	ix, err := code.OpenContext(ctx, *repo, code.Options{})
	if err == nil {
		var res *code.Result
		res, err = ix.InspectEntity(code.Query{Symbol: *symbol, Path: *path, Line: *line, IncludeFullSource: *full, MaxNeighbors: *maxN})
		if err == nil {
			if *asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(res); err != nil {
					fmt.Fprintln(stderr, "dapscope code inspect:", err)
					return 1
				}
				return 0
			}
			_, _ = io.WriteString(stdout, res.Text())
			return 0
		}
	}
	var ce *errcode.Error
	if !errors.As(err, &ce) {
		ce = &errcode.Error{Code: errcode.IndexError, Message: err.Error()}
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(map[string]any{"error": ce})
	}
	fmt.Fprintf(stderr, "dapscope code inspect: %s: %s\n", ce.Code, ce.Message)
	if len(ce.Matches) > 0 {
		fmt.Fprintf(stderr, "close matches:\n  %s\n", strings.Join(ce.Matches, "\n  "))
	}
	return 1
}
