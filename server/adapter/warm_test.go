// warm_test.go: spare debugpy adapters, with the leg's real debugpy.

package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testpython"
)

// spareOf waits until w holds a running spare for cfg and returns it.
func spareOf(t *testing.T, w *Warm, cfg StartConfig) *Adapter {
	t.Helper()
	key := warmKey{kind: Debugpy, exe: cfg.Exe, dir: cfg.Dir}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		a := w.spares[key]
		w.mu.Unlock()
		if a != nil {
			return a
		}
		time.Sleep(20 * time.Millisecond) // polling, not a timing claim
	}
	t.Fatal("no spare adapter after 30 s")
	return nil
}

// initialize sends DAP initialize on a's connection and returns the
// response's command and success.
func initialize(t *testing.T, a *Adapter) string {
	t.Helper()
	body := `{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"python","clientID":"t","linesStartAt1":true,"columnsStartAt1":true,"pathFormat":"path"}}`
	if _, err := fmt.Fprintf(a.Conn(), "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatal(err)
	}
	for {
		var n int
		if _, err := fmt.Fscanf(a.Conn(), "Content-Length: %d\r\n\r\n", &n); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(a.Conn(), b); err != nil {
			t.Fatal(err)
		}
		var m struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Success bool   `json:"success"`
		}
		_ = json.Unmarshal(b, &m)
		if m.Type == "response" {
			return fmt.Sprintf("%s %v", m.Command, m.Success)
		}
	}
}

func TestWarmSpareServesTheNextLaunch(t *testing.T) {
	d, _ := DriverFor(Debugpy)
	cfg := StartConfig{Exe: testpython.Path(), Dir: t.TempDir()}
	w := NewWarm()
	defer w.Close()
	w.Prime(d, cfg)
	spare := spareOf(t, w, cfg)
	a, err := w.Start(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a != spare {
		t.Fatalf("Start started pid %d, want the spare (pid %d)", a.PID(), spare.PID())
	}
	if got := initialize(t, a); got != "initialize true" {
		t.Fatalf("the spare answered %q", got)
	}
	// Another interpreter or directory is another key: no spare for it.
	if a2, err := w.Start(context.Background(), d, StartConfig{Exe: cfg.Exe, Dir: t.TempDir()}); err != nil || a2 == spare {
		t.Fatalf("another directory got %v, %v", a2, err)
	} else {
		_ = a2.Close()
	}
}

func TestWarmDeadSpareIsReplaced(t *testing.T) {
	d, _ := DriverFor(Debugpy)
	cfg := StartConfig{Exe: testpython.Path(), Dir: t.TempDir()}
	w := NewWarm()
	defer w.Close()
	w.Prime(d, cfg)
	spare := spareOf(t, w, cfg)
	spare.Kill()
	<-spare.Exited()
	a, err := w.Start(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a == spare || a.PID() == spare.PID() {
		t.Fatal("Start handed out the dead spare")
	}
	if got := initialize(t, a); got != "initialize true" {
		t.Fatalf("the new adapter answered %q", got)
	}
}

func TestWarmCloseEndsSpares(t *testing.T) {
	d, _ := DriverFor(Debugpy)
	cfg := StartConfig{Exe: testpython.Path(), Dir: t.TempDir()}
	w := NewWarm()
	w.Prime(d, cfg)
	spare := spareOf(t, w, cfg)
	w.Prime(d, StartConfig{Exe: cfg.Exe, Dir: t.TempDir()}) // one still starting
	w.Close()
	select {
	case <-spare.Exited():
	default:
		t.Fatal("Close left the spare running")
	}
	w.Prime(d, cfg) // after Close: nothing starts
	w.mu.Lock()
	n := len(w.spares) + len(w.starting)
	w.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d spares after Close", n)
	}
	// A kind that is not warmable is a plain start.
	if Warmable(Dlv) || Warmable(Node) || !strings.Contains(string(Debugpy), "debugpy") {
		t.Fatal("only debugpy is warmable")
	}
}
