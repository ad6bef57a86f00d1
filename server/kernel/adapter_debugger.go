// adapter_debugger.go: while a user's cell is paused in the kernel's
// debugger (the user debugging it in VS Code or JupyterLab), the session's
// requests go to that debugger over the control channel (debug_request):
// threads, stack traces, scopes, variables, evaluate (so the probe
// inspects a frame-local DataFrame of the paused cell), and the user's own
// buttons (continue, next, stepIn, stepOut). The debugger is never
// initialized or attached by dapscope: a stop is only seen once the user's
// client has started it, and the debugger's events reach every client.
// Requests for the namespace's own ids are not forwarded: the shell is held
// by the paused cell, and the namespace answers busy.

package kernel

import (
	"context"
	"encoding/json"
)

// forwarded are the commands sent to the kernel's debugger while a cell is
// paused in it.
var forwarded = map[string]bool{
	"threads": true, "stackTrace": true, "scopes": true, "variables": true, "evaluate": true,
	"continue": true, "next": true, "stepIn": true, "stepOut": true,
	"exceptionInfo": true, "source": true, "loadedSources": true, "modules": true,
	"stepInTargets": true, "completions": true,
}

// resumes are the forwarded commands after which the cell runs again.
var resumes = map[string]bool{"continue": true, "next": true, "stepIn": true, "stepOut": true}

// forwards reports whether the request goes to the kernel's debugger.
func (a *Adapter) forwards(command string, raw json.RawMessage) bool {
	a.mu.Lock()
	paused := a.mode == modePaused
	a.mu.Unlock()
	if !paused || !forwarded[command] {
		return false
	}
	var ids struct {
		FrameID            int `json:"frameId"`
		VariablesReference int `json:"variablesReference"`
	}
	_ = json.Unmarshal(raw, &ids)
	return ids.FrameID != NamespaceFrame && ids.VariablesReference != NamespaceScope
}

// forward sends one request to the kernel's debugger and returns its body.
func (a *Adapter) forward(ctx context.Context, command string, raw json.RawMessage) (any, error) {
	var args any
	if len(raw) > 0 && string(raw) != "null" {
		args = raw
	}
	resp, err := a.c.Debug(ctx, command, args)
	if err != nil {
		return nil, err
	}
	if resumes[command] {
		// debugpy sends no continued event for a resumption it was asked
		// for: the cell runs from now (the session's mux reads the same
		// from the response).
		a.mu.Lock()
		if a.mode == modePaused {
			a.mode = modeRunning
		}
		a.mu.Unlock()
	}
	if len(resp.Body) == 0 {
		return nil, nil
	}
	return resp.Body, nil
}
