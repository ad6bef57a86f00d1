// cmd_inspect_native_test.go: `dapscope inspect BINARY SOURCE:LINE EXPR`
// on the Rust test program under lldb-dap, with --build.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/nativetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	nativetest.Cleanup() // the native programs built for this run
	os.Exit(code)
}

func TestInspectNativeBinary(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.Rust)
	ws := nativetest.Workspace(t)
	line := nativetest.Line(t, nativetest.Rust, "// break here")
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{"--workspace", ws, "--build", "true", bin, "rust/src/main.rs:" + strconv.Itoa(line),
		"prices", "name", "nosuch", "--format", "json"}, &out)
	if rc != 1 { // nosuch fails
		t.Fatalf("rc = %d, output %s", rc, out.String())
	}
	var res []map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != 3 {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res[0]["detected_type"] != "ndarray" || !strings.Contains(out.String(), `"nan_count": 1`) {
		t.Fatalf("prices: %v", res[0])
	}
	if res[1]["detected_type"] != "str" || res[2]["error"] == nil {
		t.Fatalf("name, nosuch: %v %v", res[1], res[2])
	}
	out.Reset()
	if rc := inspectCLI(t.Context(), []string{"--workspace", ws, "--build", "false", bin, "rust/src/main.rs:" + strconv.Itoa(line), "prices"}, &out); rc != 1 {
		t.Fatalf("a failing --build: rc = %d", rc)
	}
}
