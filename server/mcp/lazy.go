// lazy.go: a kernel session's captures are taken when a client asks, never
// at the stop itself (#36). A kernel's "stop" is a user's cell ending: a
// namespace summary taken then would sit in the kernel's shell queue and
// make the user's next cell wait. So the stop follower leaves kernel
// sessions alone (state.go), and the namespace is read when something
// needs it: debug_wait's report (its locals and watches), debug_diff with
// no ids, debug_watch list/evaluate, debug_variables, the kernel view.
//
// What that means for debug_diff with no ids on a kernel: it compares the
// namespace as dapscope last captured it (the capture with fingerprints
// that kernel_attach's and debug_wait's reports and debug_diff itself take,
// once per cell, after In[k]) with the namespace now (after In[n]); when
// several cells ran in between, their changes are reported together, and
// the result names both ends (from "namespace as last read", its location
// "namespace after In[k]"; to "namespace now"). debug_variables and the
// kernel view read the namespace without keeping a capture. When only one
// capture was taken, there is no earlier end: it says so (NOT_FOUND), as
// for a debug session's first stop.

package mcp

import (
	"context"

	"github.com/dapscope/dapscope/server/session"
)

// Names of a kernel's two diff ends (debug_diff with no ids).
const (
	kernelDiffFrom = "namespace as last read"
	kernelDiffTo   = "namespace now"
)

// diffEnds names the ends of debug_diff with no ids.
func diffEnds(sess *session.Session) (from, to string) {
	if sess.IsKernel() {
		return kernelDiffFrom, kernelDiffTo
	}
	return "previous stop", "current stop"
}

// refreshWatchesIfStale evaluates a kernel session's watches once for the
// current cell when they were last evaluated after an earlier one (the
// stop follower does not, lazy.go's header); st.mu is held.
func refreshWatchesIfStale(ctx context.Context, sess *session.Session, st *sessState) {
	if !sess.IsKernel() || len(st.watches) == 0 {
		return
	}
	if _, paused := sess.Paused(); !paused {
		return
	}
	gen := sess.StopCount()
	stale := false
	for _, w := range st.watches {
		if !w.evaluated || w.gen != gen {
			stale = true
		}
	}
	if !stale {
		return
	}
	stack, err := watchStack(ctx, sess, st.watches)
	if err != nil {
		return
	}
	for _, w := range st.watches {
		if !w.evaluated || w.gen != gen {
			w.evaluate(ctx, sess, stack, gen)
		}
	}
}
