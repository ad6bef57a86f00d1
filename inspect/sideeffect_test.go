// sideeffect_test.go: a transport that ignores EvalRequest.SideEffectFree
// (an adapter that does not know dapscope's throwOnSideEffect) never runs a
// filter: the canary's write goes through, the driver answers NOT_SUPPORTED
// before the filter's evaluate is sent, and the program is unchanged. The
// same filter through a checking transport is refused as a side effect.

package inspect

import (
	"context"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

// uncheckedTransport evaluates everything without the side-effect check.
type uncheckedTransport struct{ *jsHarness }

func (u uncheckedTransport) EvaluateProbe(ctx context.Context, req EvalRequest) (string, error) {
	req.SideEffectFree = false
	return u.jsHarness.EvaluateProbe(ctx, req)
}

func TestFilterNeedsASideEffectCheck(t *testing.T) {
	js := startJSHarness(t, hostileFixture)
	ctx := context.Background()
	// the grammar lets it through (includes is a listed method); only V8's
	// check can see that this includes writes
	const filter = "sneaky.includes(qty)"
	if err := ValidateJSFilter(filter); err != nil {
		t.Fatal(err)
	}
	_, err := Browse(ctx, uncheckedTransport{js}, 0, "small", Selection{Filter: filter}, Options{Timeout: 10})
	if e := errcode.As(err); e == nil || e.Code != errcode.NotSupported || !strings.Contains(e.Message, "side-effect check") {
		t.Fatalf("unchecked transport: %v, want NOT_SUPPORTED", err)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("the filter ran: %s writes", h)
	}
	_, err = Browse(ctx, js, 0, "small", Selection{Filter: filter}, Options{Timeout: 10})
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "was refused: it could change the program") {
		t.Fatalf("checked transport: %v, want INVALID_EXPRESSION (refused)", err)
	}
	if h := hostileHits(t, js); h != "0" {
		t.Fatalf("the refused filter changed the program: %s writes", h)
	}
}
