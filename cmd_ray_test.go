// cmd_ray_test.go runs `dapscope ray list|inspect` (in process) against a
// real local Ray cluster whose two tasks pause at breakpoint(), one of
// them on a shard whose price column is all NaN: the list names both, and
// one `ray inspect df` shows the anomaly in one row of one table; the
// tasks run on after it (it detaches).

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/ray"
	"github.com/dapscope/dapscope/server/ray/raytest"
)

func TestRayCLI(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	root, _ := os.Getwd()
	c := raytest.Start(t, testpython.Path(), root, "shards")
	where := []string{"--address", c.Dashboard, "--token-file", c.TokenFile, "--python", testpython.Path()}

	var out, errOut bytes.Buffer
	var l ray.Listing
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		out.Reset()
		if rc := rayCLI(t.Context(), append([]string{"list", "--format", "json"}, where...), &out, &errOut); rc != 0 {
			t.Fatalf("ray list: rc %d: %s", rc, errOut.String())
		}
		if err := json.Unmarshal(out.Bytes(), &l); err != nil {
			t.Fatalf("ray list --format json = %s: %v", out.String(), err)
		}
		if len(l.Tasks) == 2 && l.Tasks[0].Name != "" && l.Tasks[1].Name != "" || time.Now().After(deadline) {
			break
		}
	}
	if len(l.Tasks) != 2 {
		t.Fatalf("ray list = %+v", l)
	}
	out.Reset()
	if rc := rayCLI(t.Context(), append([]string{"list"}, where...), &out, &errOut); rc != 0 || strings.Count(out.String(), "waits for a debugger") != 2 || !strings.Contains(out.String(), "shard") {
		t.Fatalf("ray list: rc %d\n%s", rc, out.String())
	}
	if strings.Contains(out.String(), readFile(t, c.TokenFile)) {
		t.Fatal("the token was printed")
	}

	out.Reset()
	if rc := rayCLI(t.Context(), append([]string{"inspect", "df"}, where...), &out, &errOut); rc != 0 {
		t.Fatalf("ray inspect: rc %d: %s", rc, errOut.String())
	}
	table := out.String()
	if strings.Count(table, "| paused |") != 2 || strings.Count(table, "all null: price") != 1 {
		t.Fatalf("ray inspect df:\n%s\n%s", table, errOut.String())
	}

	// Bad usage.
	if rc := rayCLI(t.Context(), []string{"inspect"}, &out, &errOut); rc != 2 {
		t.Errorf("inspect without an expression: rc %d", rc)
	}
	if rc := rayCLI(t.Context(), []string{"frobnicate"}, &out, &errOut); rc != 2 {
		t.Errorf("unknown subcommand: rc %d", rc)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
