// surrogate_test.go: an editor-channel message holding lone UTF-16
// surrogate escapes ("\ud83d") is decoded and answered like any other
// (issue #28.1): jsonrpc2's decoder reads a lone half as U+FFFD.

package editor_test

import "testing"

func TestChannelReadsLoneSurrogates(t *testing.T) {
	c, r, _ := rawChannel(t)
	writeFrame(t, c, `{"jsonrpc":"2.0","id":9,"method":"dapscope/sessions","params":{"note":"half \ud83d, other half \ude00"}}`)
	m := readFrame(t, c, r)
	if m["id"] != float64(9) || m["error"] != nil {
		t.Fatalf("a request with lone surrogates = %v, want its result", m)
	}
}
