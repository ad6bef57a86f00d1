// processes.go: dapscope/inspectProcesses, the extension's "Compare across
// processes" view: one question to every process of a debug session tree
// (a multiprocessing run, a pool's workers), answered as one table, a row
// per process with its summary and problems, or why it has none (not
// paused, no such name, ended). The tree is the editor's: the extension
// names the VS Code debug sessions of the tree (the root and its child
// sessions, which VS Code starts for each subprocess: bridged, or proxied
// `dapscope` sessions), or a sidecar session id whose headless tree is
// asked ("all": every live session). The table and its budget are
// server/allprocs', as MCP's session_id "all" and the CLI's
// --all-processes.

package editor

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/session"
)

// Budget of a dapscope/inspectProcesses answer: the default, and the most
// a caller may ask for.
const (
	defaultProcessesBytes = 64 << 10
	maxProcessesBytes     = 1 << 20
)

// ProcessesParams are the dapscope/inspectProcesses parameters.
type ProcessesParams struct {
	// SessionID is a sidecar session: its tree (itself if it has no
	// children), or "all" for every live session.
	SessionID string `json:"sessionId,omitempty"`
	// VSCodeSessionIDs are the editor's debug sessions of the tree, parents
	// before children.
	VSCodeSessionIDs []string `json:"vscodeSessionIds,omitempty"`
	// FrameIDs is the frame to ask per session (sidecar or VS Code id);
	// any other process is asked in its top frame.
	FrameIDs   map[string]int  `json:"frameIds,omitempty"`
	Expression string          `json:"expression"`
	Options    inspect.Options `json:"options"`
	// MaxBytes bounds the table's text (default 64 KiB).
	MaxBytes int `json:"maxBytes,omitempty"`
}

func (s *Server) inspectProcesses(ctx context.Context, params json.RawMessage) (any, error) {
	var p ProcessesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Expression == "" {
		return nil, invalidParams("expression is required")
	}
	if p.SessionID == "" && len(p.VSCodeSessionIDs) == 0 {
		return nil, invalidParams("sessionId or vscodeSessionIds is required")
	}
	budget := p.MaxBytes
	if budget <= 0 {
		budget = defaultProcessesBytes
	}
	budget = min(budget, maxProcessesBytes)
	var procs []*allprocs.Process
	seen := map[string]bool{}
	add := func(list ...*allprocs.Process) {
		for _, pr := range list {
			if pr.SessionID != "" && seen[pr.SessionID] {
				continue
			}
			seen[pr.SessionID] = true
			procs = append(procs, pr)
		}
	}
	// The editor's sessions first: a sidecar session that is one of them
	// keeps its VS Code id.
	for _, id := range p.VSCodeSessionIDs {
		add(s.editorProcesses(id)...)
	}
	if p.SessionID != "" {
		list, err := s.sidecarTree(p.SessionID)
		if err != nil {
			return nil, err
		}
		add(allprocs.Sessions(list)...)
	}
	return allprocs.Run(ctx, procs, p.Expression, p.FrameIDs, budget, allprocs.Inspect(p.Options, p.Expression)), nil
}

// sidecarTree is the sessions a sidecar session id asks: every live one
// ("all"), its tree, or itself.
func (s *Server) sidecarTree(id string) ([]*session.Session, error) {
	if id == allprocs.All {
		return allprocs.Live(s.mgr.List())
	}
	ss, err := s.mgr.Get(id)
	if err != nil {
		return nil, err
	}
	if tree := allprocs.TreeOf(ss); tree != nil {
		return tree, nil
	}
	return []*session.Session{ss}, nil
}

// editorProcesses is the process of one VS Code debug session (with its
// sidecar session's headless children, if any): bridged, or proxied; one
// that is gone or not connected yet is a row saying so.
func (s *Server) editorProcesses(vscodeID string) []*allprocs.Process {
	gone := func(status, why string) []*allprocs.Process {
		return []*allprocs.Process{{Row: allprocs.Row{VSCodeSessionID: vscodeID, Status: status, Error: why}}}
	}
	if b, ended := s.bridge.Lookup(vscodeID); b != nil {
		return []*allprocs.Process{bridgedProcess(b)}
	} else if ended {
		return gone(session.StatusCompleted, "the debug session has ended")
	}
	sid, err := s.sidecarIDOf(vscodeID)
	if err != nil {
		return gone("starting", err.Error())
	}
	if sid == "" {
		return gone("unknown", "not a debug session dapscope sees (neither bridged nor proxied)")
	}
	ss, err := s.mgr.Get(sid)
	if err != nil {
		return gone(session.StatusCompleted, err.Error())
	}
	list := []*session.Session{ss}
	if tree := allprocs.TreeOf(ss); tree != nil {
		list = tree
	}
	out := allprocs.Sessions(list)
	out[0].VSCodeSessionID = vscodeID
	return out
}

// bridgedProcess is one of the editor's own sessions as a process: its top
// frame as the editor's stackTrace of the stop gave it.
func bridgedProcess(b *bridge.Session) *allprocs.Process {
	in := b.Info()
	return &allprocs.Process{Row: allprocs.Row{VSCodeSessionID: in.VSCodeSessionID, Name: in.Name, Status: in.Status}, Target: b,
		Stop: func(ctx context.Context) (string, int) {
			thread, ok := b.Paused()
			if !ok {
				return "", 0
			}
			frame, _ := b.KnownTopFrame(ctx, thread)
			loc := ""
			if f, ok := b.KnownTopStackFrame(); ok {
				loc = fmt.Sprintf("%s:%d", f.Source.Path, f.Line)
			}
			return loc, frame
		}}
}
