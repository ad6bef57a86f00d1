// warm.go: spare processes, started ahead of time, for the next launch of
// a long-lived sidecar (dapscope mcp, serve, the editor's proxy). Starting
// debugpy's adapter (an interpreter and the adapter's imports) is a fixed
// ~0.2–0.3 s of every launch to the first stop; a spare pays it while
// nobody waits. Only adapters that keep no state before their initialize
// request are kept warm (debugpy: Warmable). A spare debuggee
// (debugpy_spare.go) is kept the same way, for headless launches.

package adapter

import (
	"context"
	"sync"
	"time"
)

// RefillDelay is how long after a launch takes the spare its replacement
// starts: the launch's own debuggee is starting then, and on a small
// machine the two would share its cores.
var RefillDelay = 3 * time.Second

// Warmable reports whether kind's adapter may be started ahead of its
// session: a process that only waits for its first request.
func Warmable(k Kind) bool { return k == Debugpy }

type warmKey struct {
	kind     Kind
	exe, dir string
	debuggee bool // a spare debuggee (debugpy_spare.go), not an adapter
}

// Warm keeps at most one spare adapter per (kind, executable, directory).
// Its zero value is not usable: NewWarm.
type Warm struct {
	mu       sync.Mutex
	spares   map[warmKey]*Adapter
	starting map[warmKey]bool
	closed   bool
	wg       sync.WaitGroup
	ctx      context.Context
	cancel   context.CancelFunc
}

// NewWarm makes an empty set of spares.
func NewWarm() *Warm {
	ctx, cancel := context.WithCancel(context.Background())
	return &Warm{spares: map[warmKey]*Adapter{}, starting: map[warmKey]bool{}, ctx: ctx, cancel: cancel}
}

// Start returns a spare adapter for d and cfg when one is ready and alive,
// else starts one now; either way a new spare is started in the
// background for the next call. A nil w, or a kind that is not Warmable,
// is a plain d.Start.
func (w *Warm) Start(ctx context.Context, d Driver, cfg StartConfig) (*Adapter, error) {
	if w == nil || !Warmable(d.Kind()) {
		return d.Start(ctx, cfg)
	}
	key := warmKey{kind: d.Kind(), exe: cfg.Exe, dir: cfg.Dir}
	spare := w.take(key)
	w.prime(key, func(ctx context.Context) (*Adapter, error) { return d.Start(ctx, cfg) }, RefillDelay)
	if spare != nil {
		return spare, nil
	}
	return d.Start(ctx, cfg)
}

// TakeDebuggee returns a ready spare debuggee for cfg's interpreter and
// directory, or nil when none is ready (the launch then runs as usual);
// either way another is started in the background. env is the spares'
// start-up environment.
func (w *Warm) TakeDebuggee(cfg StartConfig, env []string) *Adapter {
	if w == nil {
		return nil
	}
	key := warmKey{kind: Debugpy, exe: cfg.Exe, dir: cfg.Dir, debuggee: true}
	spare := w.take(key)
	w.PrimeDebuggee(cfg, env, RefillDelay)
	return spare
}

// PrimeDebuggee starts a spare debuggee for cfg after a delay, unless one
// is ready or starting.
func (w *Warm) PrimeDebuggee(cfg StartConfig, env []string, after time.Duration) {
	key := warmKey{kind: Debugpy, exe: cfg.Exe, dir: cfg.Dir, debuggee: true}
	w.prime(key, func(ctx context.Context) (*Adapter, error) { return StartSpareDebuggee(ctx, cfg, env) }, after)
}

// take removes the key's spare, if it is still running.
func (w *Warm) take(key warmKey) *Adapter {
	w.mu.Lock()
	a := w.spares[key]
	delete(w.spares, key)
	w.mu.Unlock()
	if a == nil {
		return nil
	}
	select {
	case <-a.Exited(): // died while waiting (killed, or its interpreter went away)
		_ = a.Close()
		return nil
	default:
		return a
	}
}

// Prime starts a spare for d and cfg in the background unless one is
// ready or starting. Failures are silent: the next Start starts its own.
func (w *Warm) Prime(d Driver, cfg StartConfig) {
	if w == nil || !Warmable(d.Kind()) {
		return
	}
	key := warmKey{kind: d.Kind(), exe: cfg.Exe, dir: cfg.Dir}
	w.prime(key, func(ctx context.Context) (*Adapter, error) { return d.Start(ctx, cfg) }, 0)
}

func (w *Warm) prime(key warmKey, start func(context.Context) (*Adapter, error), after time.Duration) {
	if w == nil {
		return
	}
	w.mu.Lock()
	if w.closed || w.spares[key] != nil || w.starting[key] {
		w.mu.Unlock()
		return
	}
	w.starting[key] = true
	w.wg.Add(1)
	w.mu.Unlock()
	go func() {
		defer w.wg.Done()
		if after > 0 {
			t := time.NewTimer(after)
			select {
			case <-t.C:
			case <-w.ctx.Done():
				t.Stop()
			}
		}
		if w.ctx.Err() != nil { // closed while waiting
			w.mu.Lock()
			delete(w.starting, key)
			w.mu.Unlock()
			return
		}
		a, err := start(w.ctx)
		w.mu.Lock()
		delete(w.starting, key)
		keep := err == nil && !w.closed && w.spares[key] == nil
		if keep {
			w.spares[key] = a
		}
		w.mu.Unlock()
		if err == nil && !keep {
			_ = a.Close()
		}
	}()
}

// Close ends every spare (and any being started) and waits for them.
func (w *Warm) Close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	spares := w.spares
	w.spares = map[warmKey]*Adapter{}
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
	for _, a := range spares {
		_ = a.Close()
	}
}

// Ready is how many spares are started and waiting.
func (w *Warm) Ready() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.spares)
}
