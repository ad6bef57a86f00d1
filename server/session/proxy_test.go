// proxy_test.go: a scripted editor drives a full debugpy session through
// the proxy while an internal client sends its own requests on the same
// adapter connection; the editor's transcript must match a direct
// (unproxied) run but for timing-dependent fields.

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// editorScript runs the standard editor session and returns nothing; the
// client's transcript is the result.
func editorScript(t *testing.T, ed *daptest.Client, program string, whilePaused func()) {
	// → initialize            ← response
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	// → launch                (answered after configurationDone)
	// ← initialized
	config := daptest.PythonLaunch(program)
	config["justMyCode"] = true
	config["python"] = []string{testpython.Path()}
	launch := ed.StartLaunch(config)
	ed.Event("initialized")
	// → setBreakpoints(14)    ← response
	// → setExceptionBreakpoints ← response
	// → configurationDone     ← response, ← launch response
	// ← stopped(breakpoint)
	ed.SetBreakpoints(program, 14)
	ed.SetExceptionBreakpoints()
	ed.ConfigurationDone()
	ed.OK(launch)
	tid := ed.Stopped().Body.ThreadId
	// → threads, stackTrace, scopes, variables, evaluate ← responses
	ed.Threads()
	frame := ed.StackTrace(tid, 20)[0]
	locals := ed.Scopes(frame.Id)[0]
	ed.Variables(locals.VariablesReference)
	if got := ed.Evaluate("total + 41", frame.Id, "watch").Result; got != "41" {
		t.Errorf("editor evaluate = %v, want 41", got)
	}
	if whilePaused != nil {
		whilePaused()
	}
	// → next                  ← response, ← stopped(step)
	// → stackTrace            ← response
	ed.Next(tid)
	ed.Stopped()
	ed.StackTrace(tid, 20)
	// → setBreakpoints([])    ← response
	// → continue              ← response, ← terminated
	// → disconnect            ← response
	ed.SetBreakpoints(program)
	ed.Continue(tid)
	ed.Event("terminated")
	ed.Disconnect(true)
}

// normalize keeps what must be identical between two runs: message kinds,
// commands, success and bodies with ids, seqs and process details removed.
func normalize(transcript []daptest.Msg) []string {
	volatile := map[string]bool{"seq": true, "id": true, "frameId": true, "threadId": true, "variablesReference": true,
		"systemProcessId": true, "startMethod": true, "pointerSize": true, "presentationHint": true, "sockets": true}
	var clean func(v any) any
	clean = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if !volatile[k] {
					out[k] = clean(e)
				}
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = clean(e)
			}
			return out
		}
		return v
	}
	var out []string
	for _, msg := range transcript {
		var m map[string]any
		if err := json.Unmarshal(msg.Raw, &m); err != nil {
			panic(err) // daptest already decoded it
		}
		// Output, thread and debugpy-private events depend on timing.
		if m["type"] == "event" {
			switch ev := m["event"].(string); {
			case ev == "output", ev == "thread", ev == "process", ev == "module", ev == "loadedSource", strings.HasPrefix(ev, "debugpy"):
				continue
			}
		}
		b, _ := json.Marshal(clean(m))
		out = append(out, string(b))
	}
	return out
}

func TestProxyTranscriptMatchesDirect(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "core", "loop.py")

	// Direct: the editor talks to debugpy's adapter itself.
	ad, err := adapter.StartDebugpy(testCtx(t), adapter.DebugpyConfig{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	direct := daptest.New(t, ad.Conn())
	editorScript(t, direct, program, nil)
	direct.Close()
	_ = ad.Close()

	// Proxied, with an internal client busy on the same session.
	m := newTestManager(t, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	proxied := daptest.New(t, edSide)
	var internalOK, internalNotPaused atomic.Int64
	var internalErrs []string
	var mu sync.Mutex
	whilePaused := func() {
		s, err := m.Get("")
		if err != nil {
			t.Fatal(err)
		}
		// Internal requests concurrent with each other (and with the
		// editor's traffic before and after this point).
		var wg sync.WaitGroup
		for i := 0; i < 6; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 5; j++ {
					frames, err := s.StackTrace(context.Background(), 0, 5)
					if err == nil && len(frames) > 0 {
						var ev struct {
							Result string `json:"result"`
						}
						err = s.Request(context.Background(), "evaluate", godap.EvaluateArguments{Expression: fmt.Sprintf("%d * 2", i*10+j), FrameId: frames[0].Id, Context: "watch"}, &ev)
						if err == nil && ev.Result != fmt.Sprint((i*10+j)*2) {
							err = fmt.Errorf("internal evaluate %d*2 = %q (misrouted response?)", i*10+j, ev.Result)
						}
						if err == nil {
							var scopes []dapScope
							if scopes, err = s.Scopes(context.Background(), frames[0].Id); err == nil && len(scopes) > 0 {
								_, err = s.Variables(context.Background(), scopes[0].VariablesReference)
							}
						}
					}
					var se *errcode.Error
					switch {
					case err == nil:
						internalOK.Add(1)
					case errors.As(err, &se) && se.Code == errcode.NotPaused:
						internalNotPaused.Add(1)
					default:
						mu.Lock()
						internalErrs = append(internalErrs, err.Error())
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
	}
	editorScript(t, proxied, program, whilePaused)
	proxied.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	if len(internalErrs) > 0 {
		t.Fatalf("internal client errors: %v", internalErrs)
	}
	if internalOK.Load() != 30 {
		t.Fatalf("internal requests ok = %d (not paused %d), want 30", internalOK.Load(), internalNotPaused.Load())
	}
	if f := proxied.Foreign(); len(f) > 0 {
		t.Fatalf("the editor received responses it did not cause: %v", f)
	}
	a, b := normalize(direct.Transcript()), normalize(proxied.Transcript())
	if !reflect.DeepEqual(a, b) {
		// Show the first difference.
		for i := 0; i < min(len(a), len(b)); i++ {
			if a[i] != b[i] {
				t.Fatalf("transcripts differ at message %d:\ndirect:  %s\nproxied: %s", i, a[i], b[i])
			}
		}
		t.Fatalf("transcripts differ in length: direct %d, proxied %d\ndirect tail: %v\nproxied tail: %v", len(a), len(b), tail(a), tail(b))
	}
	t.Logf("transcripts match: %d messages compared; %d internal requests served", len(a), internalOK.Load())
}

func tail(s []string) []string {
	if len(s) > 3 {
		return s[len(s)-3:]
	}
	return s
}

type dapScope = godap.Scope
