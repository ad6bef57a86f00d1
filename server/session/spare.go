// spare.go: a headless debugpy launch run in a spare debuggee
// (adapter/debugpy_spare.go) that a long-lived sidecar keeps ready with its
// spare adapter (ManagerOptions.WarmAdapters). The session attaches its
// adapter with "listen"; once the adapter says where it listens
// (debugpyWaitingForServer), the spare connects there and runs the
// program. To the caller it is a launch like any other: the program's
// output comes as output events, terminate ends it, its exit code is the
// outcome's. A launch that a spare could not run as a fresh interpreter
// would (another interpreter, stop on entry, an environment variable read
// at start-up) runs the usual way, as does any launch when no spare is
// ready or the spare fails before the program starts.

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// spareExitWait bounds how long the end of a program run in a spare waits
// for the spare's exit, to report its exit code.
const spareExitWait = 2 * time.Second

// spareEnv is the start-up environment of the manager's spare debuggees:
// what LaunchArgs gives every launch that pydevd reads as it is imported.
func (m *Manager) spareEnv() []string {
	if m.opts.InterruptTimeout <= 0 {
		return nil
	}
	return []string{fmt.Sprintf("PYDEVD_INTERRUPT_THREAD_TIMEOUT=%g", m.opts.InterruptTimeout.Seconds())}
}

// spareConfig is the key of the manager's spare debuggees.
func (m *Manager) spareConfig() adapter.StartConfig {
	return adapter.StartConfig{Exe: m.opts.Python, Dir: m.opts.Workspace, Logger: m.log}
}

// spareFits reports whether a launch runs in a spare as it would in a
// fresh interpreter.
func (m *Manager) spareFits(d adapter.Driver, spec LaunchSpec, exe string) bool {
	if m.warm == nil || m.opts.NoSpareDebuggee || d.Kind() != adapter.Debugpy || spec.StopOnEntry || exe != m.opts.Python || m.opts.Python == "" {
		return false
	}
	for k := range spec.Env {
		if adapter.SpareEnvAtStart(k) {
			return false
		}
	}
	return true
}

// launchOnSpare runs the launch in a ready spare; ok is false when it was
// not (no spare fits or is ready, or it failed before the program ran),
// and the caller launches the usual way.
func (m *Manager) launchOnSpare(ctx context.Context, d adapter.Driver, spec LaunchSpec, program, cwd, exe string, follow bool, byFile map[string][]Breakpoint) (*Session, bool) {
	if !m.spareFits(d, spec, exe) {
		return nil, false
	}
	spare := m.warm.TakeDebuggee(m.spareConfig(), m.spareEnv())
	if spare == nil {
		return nil, false
	}
	s, err := m.newLive(ctx, OriginHeadless, d, d.Dir(program), exe)
	if err != nil {
		_ = spare.Close()
		return nil, false
	}
	m.launched(s, spec, program, follow)
	s.spare = spare
	s.ad.TrackProcess(spare.PID()) // ended with the session's adapter, as a launched debuggee is
	go func() {                    // reap the spare once it or the adapter is gone
		select {
		case <-spare.Exited():
		case <-s.ad.Exited():
		}
		_ = spare.Close()
	}()
	run := adapter.SpareRun{Program: program, Module: spec.Module, Args: spec.Args, Cwd: cwd, Env: spec.Env, Subprocesses: follow}
	sub := s.mux.Subscribe(16)
	handed := make(chan error, 1)
	go func() { handed <- handToSpare(ctx, sub, spare, run) }()
	args := map[string]any{
		"request": "attach", "type": "python", "justMyCode": true, "redirectOutput": true, "subProcess": follow,
		"listen": map[string]any{"host": "127.0.0.1", "port": 0},
	}
	err = s.start(ctx, "attach", args, byFile)
	sub.Close()
	if herr := <-handed; err == nil && herr != nil {
		err = herr
	}
	if err != nil {
		s.log.Info("the spare debuggee failed; launching the usual way", "err", err)
		s.end(context.Background())
		m.Remove(s.id)
		return nil, false
	}
	return s, true
}

// handToSpare waits for the adapter's listening address and hands the
// spare its program.
func handToSpare(ctx context.Context, sub *mux.Subscription, spare *adapter.Adapter, run adapter.SpareRun) error {
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				return errors.New("the adapter never said where it listens for the spare")
			}
			if ev.Event != "debugpyWaitingForServer" {
				continue
			}
			var addr struct {
				Host string `json:"host"`
				Port int    `json:"port"`
			}
			if err := json.Unmarshal(ev.Body, &addr); err != nil || addr.Port <= 0 {
				return fmt.Errorf("debugpyWaitingForServer without an address: %s", ev.Body)
			}
			run.Host, run.Port = addr.Host, addr.Port
			return adapter.RunOnSpare(spare, run)
		case <-spare.Exited():
			return errors.New("the spare debuggee exited before its program was handed over")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// awaitSpare, at the program's end, waits for the spare's exit (bounded)
// and records its exit code, as a launcher's "exited" event would.
func (s *Session) awaitSpare() {
	if s.spare == nil {
		return
	}
	select {
	case <-s.spare.Exited():
	case <-time.After(spareExitWait):
		return
	}
	code := s.spare.ExitCode()
	s.mu.Lock()
	if o := s.outcomeLocked(); o.ExitCode == nil && code >= 0 {
		o.ExitCode = &code
	}
	s.mu.Unlock()
}
