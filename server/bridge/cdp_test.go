// cdp_test.go: the CDP shortcut of bridged js-debug sessions against a
// real node. Node's own inspector stands in for js-debug's CDP proxy (the
// proxy forwards CDP to it; JsDebug.subscribe, which the inspector lacks,
// is only the proxy's way to forward live events). The JavaScript probe's
// inspection of records runs through Debugger.evaluateOnCallFrame with no
// request through the editor; anything that is not the editor's top frame
// takes the editor's path, and an exception is an error, not a retry. The
// editor's side is the bridge's Editor as one function: it records each
// request and refuses it, as an extension without the session would.

package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	nodeadapter "github.com/dapscope/dapscope/server/adapter/node"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
)

// startInspectedNode runs node --inspect-brk on program and returns its
// inspector's address.
func startInspectedNode(t *testing.T, program string) CDPAddress {
	t.Helper()
	cmd := exec.Command("node", "--inspect-brk=127.0.0.1:0", program)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`ws://\S+`)
		for sc.Scan() {
			if m := re.FindString(sc.Text()); m != "" {
				select {
				case found <- m:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		p, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		port, _ := strconv.Atoi(p.Port())
		return CDPAddress{Host: p.Hostname(), Port: port, Path: p.Path}
	case <-time.After(30 * time.Second):
		t.Fatal("node printed no inspector URL")
	}
	return CDPAddress{}
}

// waitTopLine waits until the link's top call frame is on line.
func waitTopLine(t *testing.T, l *cdpLink, line int) cdpFrame {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if f, ok := l.topFrame(); ok && f.line == line {
			return f
		}
	}
	f, _ := l.topFrame()
	t.Fatalf("never paused on line %d (top frame: %+v)", line, f)
	return cdpFrame{}
}

func TestBridgeCDPShortcut(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/agent.js")
	src, _ := os.ReadFile(fixture)
	bpLine := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "// BREAKPOINT") {
			bpLine = i + 1
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	addr := startInspectedNode(t, fixture)
	if _, err := (CDPAddress{Host: "192.0.2.1", Port: addr.Port}).url(); err == nil {
		t.Fatal("a non-loopback proxy address was accepted")
	}

	// → JsDebug.subscribe (refused by a bare inspector), Debugger.enable
	// → Debugger.setBreakpointByUrl, Runtime.runIfWaitingForDebugger
	// ← Debugger.paused (first line) → Debugger.resume ← paused (breakpoint)
	l, err := dialCDPLink(ctx, addr, nodeadapter.Hops{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if err := l.call(ctx, "Debugger.setBreakpointByUrl", map[string]any{"lineNumber": bpLine - 1, "urlRegex": `agent\.js$`}, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.call(ctx, "Runtime.runIfWaitingForDebugger", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, ok := l.topFrame(); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no pause at the first line")
		}
	}
	if f, _ := l.topFrame(); f.line != bpLine {
		if err := l.call(ctx, "Debugger.resume", map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	waitTopLine(t, l, bpLine)

	// The editor's side: any request through it is recorded and refused.
	var viaEditor atomic.Int32
	var seenMu sync.Mutex
	var seen []string // "command frameId"
	editorSide := EditorFunc(func(_ context.Context, _, command string, args any) (json.RawMessage, error) {
		viaEditor.Add(1)
		var a struct {
			FrameID *int `json:"frameId"`
		}
		raw, _ := json.Marshal(args)
		_ = json.Unmarshal(raw, &a)
		frame := "-"
		if a.FrameID != nil {
			frame = strconv.Itoa(*a.FrameID)
		}
		seenMu.Lock()
		seen = append(seen, command+" "+frame)
		seenMu.Unlock()
		return nil, &EditorError{Message: "method not found: dapscope/dapRequest"}
	})
	lastSeen := func() string {
		seenMu.Lock()
		defer seenMu.Unlock()
		if len(seen) == 0 {
			return ""
		}
		return seen[len(seen)-1]
	}
	const top = 7 // js-debug's DAP id of the top frame, as the editor's stackTrace gave it
	br := &Session{id: "js", adapter: "node", ed: editorSide, status: "paused", stopped: true, threadID: 1,
		top: top, topLine: bpLine, topKnown: true, cdp: l, values: &sync.Map{}}

	// The probe (installed, then one evaluate) through the shortcut only.
	res, err := inspect.Inspect(ctx, br, top, "records", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != inspect.TypeDataFrame || res.Structure == nil || len(res.Structure.Shape) != 2 || res.Structure.Shape[0] != 3 {
		js, _ := json.Marshal(res)
		t.Fatalf("records through CDP = %s", js)
	}
	if n := viaEditor.Load(); n != 0 {
		t.Fatalf("%d requests went through the editor", n)
	}

	// A page of records through the shortcut: its filter runs in an
	// evaluate of its own under V8's side-effect check; one that would
	// change the program is refused, and the program is as it was.
	page, err := inspect.Browse(ctx, br, top, "records", inspect.Selection{Filter: "qty > 1 && price > 10", Sort: []inspect.SortKey{{Column: "price", Descending: true}}}, inspect.Options{})
	if err != nil || page.Page.Total() != 1 || fmt.Sprint(page.Page.Rows) != "[[Nice 12.5 3]]" || viaEditor.Load() != 0 {
		t.Fatalf("a filtered page through CDP: %+v %v (%d through the editor)", page, err, viaEditor.Load())
	}
	_, err = inspect.Browse(ctx, br, top, "records", inspect.Selection{Filter: "records.pop() && true"}, inspect.Options{})
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "could change the program") || viaEditor.Load() != 0 {
		t.Fatalf("a filter with a side effect through CDP: %v", err)
	}
	// Not the top frame: the shortcut cannot check, and js-debug's own
	// evaluate would not; the editor never sees the request.
	err = br.Request(ctx, "evaluate", map[string]any{"expression": "records.pop()", "frameId": top + 1, "context": "clipboard", "throwOnSideEffect": true}, nil)
	if e := errcode.As(err); e == nil || e.Code != errcode.NotSupported || viaEditor.Load() != 0 {
		t.Fatalf("a checked evaluate off the top frame: %v (%d through the editor)", err, viaEditor.Load())
	}
	var n struct {
		Result string `json:"result"`
	}
	if err := br.Request(ctx, "evaluate", map[string]any{"expression": "String(records.length)", "frameId": top, "context": "clipboard"}, &n); err != nil || n.Result != "3" {
		t.Fatalf("records after the refused filters: %q %v", n.Result, err)
	}

	// An exception in the expression is the evaluate's error (not retried).
	var body struct {
		Result string `json:"result"`
	}
	err = br.Request(ctx, "evaluate", map[string]any{"expression": "nope.x", "frameId": top, "context": "clipboard"}, &body)
	if err == nil || !strings.Contains(err.Error(), "ReferenceError") || viaEditor.Load() != 0 {
		t.Fatalf("exception: %v (%d through the editor)", err, viaEditor.Load())
	}
	// A runaway expression ends inside V8 when the caller's deadline comes
	// (the timeout passed along), and the frame stays usable.
	sctx, scancel := context.WithTimeout(ctx, 1500*time.Millisecond)
	err = br.Request(sctx, "evaluate", map[string]any{"expression": "(() => { for (;;) {} })()", "frameId": top, "context": "clipboard"}, &body)
	scancel()
	if err == nil {
		t.Fatal("a runaway expression returned")
	}
	if err := br.Request(ctx, "evaluate", map[string]any{"expression": "records[1].city", "frameId": top, "context": "clipboard"}, &body); err != nil || body.Result != "Lyon" {
		t.Fatalf("a string value after the runaway one: %q %v", body.Result, err)
	}

	// Before the editor's own stackTrace of the stop has told js-debug's id
	// of the top frame, V8's top frame stands for it at once (no wait).
	br.mu.Lock()
	br.topKnown, br.frames = false, true
	br.mu.Unlock()
	if id, ok := br.KnownTopFrame(ctx, 1); !ok || id != cdpTopFrame {
		t.Fatalf("KnownTopFrame before the editor's = %d %v, want V8's (%d)", id, ok, cdpTopFrame)
	}
	before := viaEditor.Load()
	if res, err := inspect.Inspect(ctx, br, 0, "records", inspect.Options{}); err != nil || res.DetectedType != inspect.TypeDataFrame || viaEditor.Load() != before {
		t.Fatalf("inspect of the top frame before the editor's stackTrace: %v, %d requests through the editor", err, viaEditor.Load()-before)
	}
	// A request that cannot take the proxy gets js-debug's id of the top
	// frame: asked (stackTrace) while not known, the editor's once told.
	if err := br.Request(ctx, "scopes", map[string]any{"frameId": cdpTopFrame}, nil); err == nil || lastSeen() != "stackTrace -" {
		t.Fatalf("scopes of V8's top frame, id not known: %v, editor saw %q", err, lastSeen())
	}
	br.mu.Lock()
	br.topKnown = true
	br.mu.Unlock()
	_ = br.Request(ctx, "scopes", map[string]any{"frameId": cdpTopFrame}, nil)
	if got := lastSeen(); got != "scopes "+strconv.Itoa(top) {
		t.Fatalf("scopes of V8's top frame, id known: the editor saw %q", got)
	}
	_ = br.Request(ctx, "evaluate", map[string]any{"expression": "1", "frameId": cdpTopFrame, "context": "hover"}, nil)
	if got := lastSeen(); got != "evaluate "+strconv.Itoa(top) {
		t.Fatalf("a hover evaluate of V8's top frame: the editor saw %q", got)
	}
	viaEditor.Store(0)

	// Not the shortcut's: another frame, another context, another line (the
	// editor's top frame is not V8's, e.g. source-mapped), no link.
	for name, c := range map[string]struct {
		args map[string]any
		line int
	}{
		"another frame":  {map[string]any{"expression": "1", "frameId": top + 1, "context": "clipboard"}, bpLine},
		"hover context":  {map[string]any{"expression": "1", "frameId": top, "context": "hover"}, bpLine},
		"another line":   {map[string]any{"expression": "1", "frameId": top, "context": "clipboard"}, bpLine + 1},
		"no frame given": {map[string]any{"expression": "1", "context": "clipboard"}, bpLine},
		"line not known": {map[string]any{"expression": "1", "frameId": top, "context": "clipboard"}, 0},
	} {
		br.mu.Lock()
		br.topLine = c.line
		br.mu.Unlock()
		if done, _ := br.evaluateViaCDP(ctx, c.args, nil); done {
			t.Errorf("%s: evaluated through the CDP proxy", name)
		}
	}
	br.mu.Lock()
	br.topLine = bpLine
	br.mu.Unlock()
	// After the step the link follows V8: no frames while running.
	if err := l.call(ctx, "Debugger.resume", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, ok := l.topFrame(); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the link still has frames after the resume")
		}
	}
	for _, frame := range []int{top, cdpTopFrame} {
		if done, _ := br.evaluateViaCDP(ctx, map[string]any{"expression": "1", "frameId": frame, "context": "clipboard"}, nil); done {
			t.Fatalf("frame %d: evaluated through the CDP proxy while running", frame)
		}
	}
	br.mu.Lock()
	br.topKnown = false
	br.mu.Unlock()
	if _, ok := br.KnownTopFrame(ctx, 1); ok {
		t.Fatal("a top frame while V8 runs and the editor has not told one")
	}
	br.unlinkCDP()
	if done, _ := br.evaluateViaCDP(ctx, map[string]any{"expression": "1", "frameId": top, "context": "clipboard"}, nil); done {
		t.Fatal("evaluated through a closed link")
	}
}
