// coded_test.go: an in-sidecar adapter's typed error survives DAP: the
// code, state, field and hint written by CodedErrorResponse come back from
// ResponseErr; any other adapter's error response carries no code.

package dap

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestCodedErrorResponse(t *testing.T) {
	req := Envelope{Seq: 7, Type: "request", Command: "evaluate"}
	in := &errcode.Error{Code: errcode.NotPaused, State: "busy", Field: "frameId", Hint: "wait", Message: "kernel is busy: cell [3]"}
	var r Response
	if err := json.Unmarshal(CodedErrorResponse(1, req, in), &r); err != nil {
		t.Fatal(err)
	}
	re, ok := ResponseErr(&r).(*ResponseError)
	if !ok || r.RequestSeq != 7 || r.Success {
		t.Fatalf("response = %+v", r)
	}
	got := re.Coded()
	if got == nil || !reflect.DeepEqual(got, in) {
		t.Errorf("Coded() = %+v, want %+v", got, in)
	}
	if re.ID != errcode.NotPaused.DAPID() {
		t.Errorf("id = %d, want NOT_PAUSED's %d", re.ID, errcode.NotPaused.DAPID())
	}
	_ = json.Unmarshal(ErrorResponse(2, req, errcode.AdapterError, "NameError: x"), &r)
	if c := ResponseErr(&r).(*ResponseError).Coded(); c != nil {
		t.Errorf("a plain error response is coded: %+v", c)
	}
}
