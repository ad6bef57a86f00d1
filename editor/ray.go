// ray.go: dapscope/rayList, the extension's "Attach to Paused Ray Tasks":
// the tasks of a Ray cluster paused in Ray's distributed debugger
// (breakpoint() with RAY_DEBUG=1, or an unhandled exception with
// RAY_DEBUG_POST_MORTEM=1), listed through the cluster's dashboard by
// server/ray, with the same rules as the CLI's `dapscope ray list` and
// MCP's ray_list: a dashboard or task on another host only when allowed
// (--attach-hosts), the cluster's token read from a file or where Ray keeps
// it and sent only in a request header. Each task is a debugpy.listen
// endpoint: the extension attaches the ones picked as `dapscope` attach
// sessions (startProxy with connect host:port and justMyCode off), whose
// proxy applies the same host rule.

package editor

import (
	"context"
	"encoding/json"

	"github.com/dapscope/dapscope/server/ray"
)

// RayListParams are the dapscope/rayList parameters: the cluster's
// dashboard URL or GCS host:port ("": $RAY_DASHBOARD_ADDRESS, else
// http://127.0.0.1:8265), and the file with its token ("": Ray's own
// places).
type RayListParams struct {
	Address   string `json:"address,omitempty"`
	TokenFile string `json:"tokenFile,omitempty"`
}

// RayListResult is the dapscope/rayList answer (server/ray.Listing).
type RayListResult struct {
	// Dashboard is the dashboard the listing came from.
	Dashboard string `json:"dashboard"`
	// Tasks wait for a debugger, by pid; one with a Note cannot be
	// attached from here (its host is not allowed).
	Tasks []ray.Task `json:"tasks"`
	// Debugging are workers with a debugger attached (or gone).
	Debugging []ray.Task `json:"debugging,omitempty"`
}

func (s *Server) rayList(ctx context.Context, params json.RawMessage) (any, error) {
	var p RayListParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	l, err := ray.ListFor(ctx, s.mgr, p.Address, p.TokenFile)
	if err != nil {
		return nil, err
	}
	return RayListResult{Dashboard: l.Dashboard, Tasks: l.Tasks, Debugging: l.Debugging}, nil
}
