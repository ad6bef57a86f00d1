// Tests of hover on Go files: the fake editor (editortest) debugs a Go
// program with Delve through dapscope/startProxy; hovering a slice and a
// struct field chain answers with the inspector's summary (Delve variables
// fallback).

package editor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
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
	c := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	c.Initialize()
	c.DidOpen(file, "go", string(src))

	proxy := c.StartProxy(editor.StartProxyParams{VSCodeSessionID: "go-1", Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "dlv", "program": dir}})
	if proxy.Adapter != "dlv" {
		t.Fatalf("startProxy = %+v", proxy)
	}
	ed := c.DialProxy(proxy.Address)
	// → initialize ← response
	// → launch ← initialized; → setBreakpoints ← response
	// → configurationDone ← response, ← launch response, ← stopped
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	ed.LaunchTo(map[string]any{"mode": "debug", "program": dir, "output": filepath.Join(t.TempDir(), "gohover.bin")}, file, bp+1)
	c.SessionEvent("stopped")

	h := hoverAt(t, c, file, lines[bp], bp, "nums")
	if h == nil || !strings.Contains(h.Contents.Value, "**nums**") || !strings.Contains(h.Contents.Value, "6") {
		t.Fatalf("hover nums = %+v", h)
	}
	// "cfg.Server" (cursor on Server, not on Port): the struct.
	line := lines[bp]
	col := strings.Index(line, "cfg.Server") + len("cfg.") + 1
	h2 := c.Hover(file, bp, col)
	if h2 == nil || !strings.Contains(h2.Contents.Value, "cfg.Server") || !strings.Contains(h2.Contents.Value, "Port") {
		t.Fatalf("hover cfg.Server = %+v", h2)
	}
	if err := c.Shutdown(); err != nil {
		t.Fatal(err)
	}
}
