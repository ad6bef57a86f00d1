// forget_test.go: a session the manager forgets (Remove, or pruned past
// ManagerOptions.KeepEnded) takes the server's state for it along: its
// watches and snapshots, and the memory budget they held (real node).

package mcp

import (
	"testing"

	"github.com/dapscope/dapscope/server/session"
)

func TestForgottenSessionDropsState(t *testing.T) {
	mgr, srv := newServer(t, Options{})
	ctx := testCtx(t)
	s, err := mgr.Launch(ctx, session.LaunchSpec{Program: "testdata/node/spin.js"})
	if err != nil {
		t.Fatal(err)
	}
	// What a snapshot leaves: state for the session and bytes of the budget.
	st := srv.state(s.ID())
	st.snapshots["s1"] = &snapshot{}
	if err := srv.budget.reserve("s1", 4096, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	if srv.existingState(s.ID()) == nil || srv.budget.stored() != 4096 {
		t.Fatal("an ended session keeps its state until it is forgotten")
	}
	mgr.Remove(s.ID())
	if srv.existingState(s.ID()) != nil || srv.budget.stored() != 0 {
		t.Fatalf("after Remove: state %v, %d bytes stored", srv.existingState(s.ID()), srv.budget.stored())
	}
}
