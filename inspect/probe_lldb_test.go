// probe_lldb_test.go: the lldb probe's paths (ptr@N), how its calls are
// written and how its answers are read (its runs against real lldb-dap
// are in server/session/lldb_inspect_test.go).

package inspect

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestNativePaths(t *testing.T) {
	p, err := ParsePathFor(Native, "pts[1].data@1000")
	if err != nil || len(p) != 4 || p[3].Kind != "len" || p[3].Value != int64(1000) || p.String() != "pts[1].data@1000" {
		t.Fatalf("ptr@N = %v (%s), %v", p, p.String(), err)
	}
	for _, bad := range []string{"ints@", "ints@-1", "ints@x", "@3"} {
		if _, err := ParsePathFor(Native, bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParsePathFor(Python, "ints@3"); err == nil {
		t.Error("@ accepted outside native sessions")
	}
}

func TestLLDBCallsAndAnswers(t *testing.T) {
	p := probeFor(Native)
	if p == nil || !strings.HasPrefix(p.slot, "dapscope_probe_") || !strings.Contains(p.source, "def command(") {
		t.Fatal("no lldb probe")
	}
	call := lldbCall(p, nil, "run", 524289, `{"path":[["name","x"]]}`)
	cmd, arg, _ := strings.Cut(call, " ")
	if cmd != "`"+p.slot {
		t.Fatalf("call = %q", call)
	}
	b, err := base64.StdEncoding.DecodeString(arg)
	var m map[string]any
	if err != nil || json.Unmarshal(b, &m) != nil || m["frame_id"] != float64(524289) || m["path"] == nil {
		t.Fatalf("arguments %s, %v", b, err)
	}
	if got := lldbDecode("(lldb) " + call + "\n{\"name\": \"x\"}\n"); got != `{"name": "x"}` {
		t.Fatalf("decode = %q", got)
	}
	if got := lldbDecode("(lldb) " + call + "\nerror: '" + p.slot + "' is not a valid command.\n"); got != probeMissing {
		t.Fatalf("decode of an unknown command = %q", got)
	}
	if in := lldbInstall(p); !strings.HasPrefix(in, "`script ") || strings.Contains(in, "\n") {
		t.Fatal("the install is not one script line")
	}
}
