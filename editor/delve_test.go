// Tests of hover on Go files: a scripted VS Code debugs a Go program with
// Delve through dapscope/startProxy; hovering a slice and a struct field
// chain answers with the inspector's summary (Delve variables fallback).
package editor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

func TestHoverGoWithDelve(t *testing.T) {
	dir, _ := filepath.Abs("testdata/gohover")
	file := filepath.Join(dir, "main.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	bp := -1
	for i, l := range lines {
		if strings.Contains(l, "// BREAK") {
			bp = i
		}
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: dir, Logger: testLogger(t)})
	c, done := startChannel(t, mgr)
	if err := c.call(t, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": string(uri.File(file)), "languageId": "go", "version": 1, "text": string(src)}})

	var proxy StartProxyResult
	if err := c.call(t, "dapscope/startProxy", map[string]any{"vscodeSessionId": "go-1", "configuration": map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "dlv", "program": dir}}, &proxy); err != nil {
		t.Fatal(err)
	}
	if proxy.Adapter != "dlv" {
		t.Fatalf("startProxy = %+v", proxy)
	}
	ed := dialEditor(t, proxy.Address)
	// → initialize ← response
	// → launch ← initialized; → setBreakpoints ← response
	// → configurationDone ← response, ← launch response, ← stopped
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	ed.LaunchTo(map[string]any{"mode": "debug", "program": dir, "output": filepath.Join(t.TempDir(), "gohover.bin")}, file, bp+1)
	c.waitEvent(t, "stopped")

	h := hoverAt(t, c, file, lines[bp], bp, "nums")
	if h == nil || !strings.Contains(h.Contents.Value, "**nums**") || !strings.Contains(h.Contents.Value, "6") {
		t.Fatalf("hover nums = %+v", h)
	}
	// "cfg.Server" (cursor on Server, not on Port): the struct.
	line := lines[bp]
	col := strings.Index(line, "cfg.Server") + len("cfg.") + 1
	h2 := hoverAtCol(t, c, file, bp, col)
	if h2 == nil || !strings.Contains(h2.Contents.Value, "cfg.Server") || !strings.Contains(h2.Contents.Value, "Port") {
		t.Fatalf("hover cfg.Server = %+v", h2)
	}
	if err := c.call(t, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.conn.Notify(context.Background(), "exit", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
