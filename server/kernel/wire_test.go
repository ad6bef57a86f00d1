//go:build linux

// wire_test.go: the ZeroMQ wire format and signatures against
// jupyter_client's own Session: what it signs we verify, what we sign it
// verifies, and a bad signature is refused with a clear error.

package kernel

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// sessionScript serializes a message with jupyter_client.Session, and
// checks (deserializes) one we made; frames travel as latin-1 JSON.
const sessionScript = `
import json, sys
from jupyter_client.session import Session
key, frames = json.load(sys.stdin)
s = Session(key=key.encode(), signature_scheme="hmac-sha256", username="u")
msg = s.msg("execute_request", {"code": "1+1", "silent": True})
ours = s.serialize(msg)
idents, rest = s.feed_identities([f.encode("latin-1") for f in frames])
try:
    back = s.deserialize(rest)
    checked = back["header"]["msg_type"] + ":" + back["content"]["code"]
except Exception as e:
    checked = "refused: " + str(e)
print(json.dumps({"frames": [f.decode("latin-1") if isinstance(f, bytes) else f for f in ours], "checked": checked}))
`

func runSession(t *testing.T, key string, frames [][]byte) (theirs [][]byte, checked string) {
	t.Helper()
	var fs []string
	for _, f := range frames {
		fs = append(fs, string(latin1(f)))
	}
	in, _ := json.Marshal([]any{key, fs})
	cmd := exec.Command(python, "-c", sessionScript)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jupyter_client: %v", err)
	}
	var r struct {
		Frames  []string
		Checked string
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Frames {
		theirs = append(theirs, fromLatin1(f))
	}
	return theirs, r.Checked
}

func latin1(b []byte) []rune {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return r
}

func fromLatin1(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

func TestWireAgainstJupyterClient(t *testing.T) {
	key := "a-key"
	s, _ := newSigner("hmac-sha256", []byte(key))
	m, _ := newRequest("sess", "execute_request", map[string]any{"code": "2+2 # é", "silent": true})
	frames, err := encodeFrames(s, m)
	if err != nil {
		t.Fatal(err)
	}
	theirs, checked := runSession(t, key, frames)
	if checked != "execute_request:2+2 # é" {
		t.Errorf("jupyter_client read our message as %q", checked)
	}
	got, err := decodeFrames(s, ChannelShell, theirs)
	if err != nil || got.Header.MsgType != "execute_request" || !strings.Contains(string(got.Content), `"1+1"`) {
		t.Errorf("we read jupyter_client's message as %+v, %v", got, err)
	}
	// A wrong key, either way round.
	wrong, _ := newSigner("hmac-sha256", []byte("other"))
	if _, err := decodeFrames(wrong, ChannelShell, theirs); !errors.Is(err, ErrSignature) ||
		!strings.Contains(err.Error(), "signature mismatch: wrong key in the connection file?") {
		t.Errorf("their message under a wrong key: %v", err)
	}
	frames, _ = encodeFrames(wrong, m)
	if _, checked := runSession(t, key, frames); !strings.HasPrefix(checked, "refused: ") {
		t.Errorf("jupyter_client accepted our message signed with a wrong key: %s", checked)
	}
	// Garbage frames are an error, not a message.
	if _, err := decodeFrames(s, ChannelIOPub, [][]byte{[]byte("topic"), []byte("no delimiter")}); err == nil {
		t.Error("frames without a delimiter were accepted")
	}
}
