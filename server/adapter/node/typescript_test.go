// typescript_test.go: TypeScript on Node 24 with correct lines (breakpoints
// verified where asked, stack lines, stepping, typed locals), the clear
// error of a node too old for it, and the version rule itself.

package node

import (
	"strings"
	"testing"

	godap "github.com/google/go-dap"
)

func TestTypeScriptOnNode24(t *testing.T) {
	c := start(t, Options{Node: node24(t), Logger: testLogger()})
	prog := program(t, "greet.ts")
	greet, shout, oldest, call := line(t, prog, "greet"), line(t, prog, "shout"), line(t, prog, "oldest"), line(t, prog, "call")
	// → launch ← initialized → setBreakpoints(@oldest, @greet): verified on those lines
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	bps := c.SetBreakpoints(prog, oldest, greet)
	for i, want := range []int{oldest, greet} {
		if !bps[i].Verified || bps[i].Line != want {
			t.Fatalf("breakpoint %d = %+v, want verified on line %d", i, bps[i], want)
		}
	}
	c.ConfigurationDone()
	c.OK(launch)
	// ← stopped in Team.oldest, called from the top level at @call - 1
	c.Stopped()
	frames := c.StackTrace(ThreadID, 5)
	if frames[0].Name != "oldest" || frames[0].Line != oldest || frames[0].Source.Path != prog {
		t.Fatalf("top = %+v", frames[0])
	}
	if frames[1].Line != call-1 {
		t.Errorf("caller line = %d, want %d", frames[1].Line, call-1)
	}
	// → continue ← stopped in greet at @greet; its typed locals
	c.Continue(ThreadID)
	c.Stopped()
	top := c.TopFrame(ThreadID)
	if top.Name != "greet" || top.Line != greet {
		t.Fatalf("greet frame = %+v", top)
	}
	var locals map[string]godap.Variable
	for _, sc := range c.Scopes(top.Id) {
		if sc.Name == "Local" {
			locals = varsByName(c.Variables(sc.VariablesReference))
		}
	}
	if locals["loud"].Value != "true" || !strings.Contains(locals["p"].Value, "alan") {
		t.Errorf("locals = %+v", locals)
	}
	// → next ← stopped at @shout (the next line, not a shifted one)
	c.Next(ThreadID)
	c.Stopped()
	if top = c.TopFrame(ThreadID); top.Line != shout {
		t.Fatalf("after next: line %d, want %d", top.Line, shout)
	}
	if r := c.Evaluate("text", top.Id, "watch"); r.Result != "'hello alan'" {
		t.Errorf("text = %q", r.Result)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 0 || output(c, "stdout") != "HELLO ALAN\n" || output(c, "stderr") != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q (node 24's inspector messages are not the program's)", code, output(c, "stdout"), output(c, "stderr"))
	}
}

// Node 20 cannot run TypeScript: the launch fails at once and says why.
func TestTypeScriptOnOldNode(t *testing.T) {
	c := start(t, Options{Node: "node"})
	v, err := nodeVersion(t.Context(), "node")
	if err != nil {
		t.Fatal(err)
	}
	if !v.less(version{22, 6, 0}) {
		t.Fatalf("this test needs a node older than 22.6 on PATH (Debian's node 20), found %s", v)
	}
	resp := c.Response(c.StartLaunch(launchConfig(program(t, "greet.ts"))))
	msg := resp.Env.Message
	if resp.Success() || !strings.Contains(msg, "greet.ts is TypeScript and node "+v.String()) ||
		!strings.Contains(msg, TypeScriptRule) || !strings.Contains(msg, "runtimeExecutable") {
		t.Fatalf("launch = %s", resp)
	}
}

func TestStripFlags(t *testing.T) {
	for out, want := range map[string]string{
		"v20.20.2": "error", "v22.5.1": "error", "v22.6.0": "--experimental-strip-types",
		"v22.18.0": "--experimental-strip-types", "v23.5.9": "--experimental-strip-types", "v23.6.0": "", "v24.21.0\n": "",
	} {
		v, ok := parseVersion(out)
		if !ok {
			t.Fatalf("parseVersion(%q) failed", out)
		}
		flags, err := stripFlags(v, "a.ts", "node")
		got := strings.Join(flags, " ")
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%s: %q, want %q", out, got, want)
		}
	}
	if _, ok := parseVersion("node 24"); ok {
		t.Error(`parseVersion("node 24") succeeded`)
	}
}
