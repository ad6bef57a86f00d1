package kernel

import (
	"errors"
	"testing"
)

// TestNotJSONContentFailsItsCall: a correctly signed message whose content
// is not JSON is ErrNotKernelReply with its headers, so the call it
// answers fails at once (it ran to its timeout, and attach said a cell
// was running).
func TestNotJSONContentFailsItsCall(t *testing.T) {
	s, _ := newSigner("hmac-sha256", []byte("key"))
	parts := [][]byte{[]byte(`{"msg_id":"r1","msg_type":"execute_reply","session":"k"}`),
		[]byte(`{"msg_id":"p1","msg_type":"execute_request","session":"me"}`), []byte("{}"), []byte("HTTP/1.1 400 Bad Request")}
	frames := append([][]byte{delimiter, s.sign(parts)}, parts...)
	m, err := decodeFrames(s, ChannelShell, frames)
	if !errors.Is(err, ErrNotKernelReply) {
		t.Fatalf("err = %v, want ErrNotKernelReply", err)
	}
	if m == nil || m.Parent.MsgID != "p1" {
		t.Fatalf("message = %+v, want its parent p1 (to fail that call)", m)
	}
}
