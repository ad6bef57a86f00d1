//go:build linux

// userclient_test.go: drives testdata/userclient.py, the user's own
// notebook client (jupyter_client's BlockingKernelClient), from a test.

package kernel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

type userClient struct {
	t       testing.TB
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	session string
	stderr  bytes.Buffer
}

// foreignMsg is an IOPub message the user's client saw that it did not
// cause.
type foreignMsg struct {
	MsgType       string          `json:"msg_type"`
	Content       json.RawMessage `json:"content"`
	ParentSession string          `json:"parent_session"`
	ParentMsgType string          `json:"parent_msg_type"`
}

type userOutput struct {
	MsgType string          `json:"msg_type"`
	Content json.RawMessage `json:"content"`
}

type userExec struct {
	Reply struct {
		Status         string `json:"status"`
		ExecutionCount int    `json:"execution_count"`
		EName          string `json:"ename"`
	} `json:"reply"`
	Outputs []userOutput `json:"outputs"`
	MsgID   string       `json:"msg_id"`
}

// Stdout is what the cell printed.
func (e userExec) Stdout() string {
	s := ""
	for _, o := range e.Outputs {
		if o.MsgType == "stream" {
			var c struct{ Text string }
			_ = json.Unmarshal(o.Content, &c)
			s += c.Text
		}
	}
	return s
}

func startUserClient(t testing.TB, connFile string) *userClient {
	t.Helper()
	u := &userClient{t: t}
	u.cmd = exec.Command(python, "testdata/userclient.py", connFile)
	u.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var err error
	if u.in, err = u.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := u.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	u.cmd.Stderr = &u.stderr
	u.out = bufio.NewScanner(stdout)
	u.out.Buffer(make([]byte, 1<<20), 64<<20)
	if err := u.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = u.in.Close()
		_ = syscall.Kill(-u.cmd.Process.Pid, syscall.SIGKILL)
		_ = u.cmd.Wait()
		if t.Failed() && u.stderr.Len() > 0 {
			t.Logf("user client stderr:\n%s", u.stderr.String())
		}
	})
	var ready struct{ Session string }
	u.read(&ready)
	u.session = ready.Session
	return u
}

func (u *userClient) read(out any) {
	u.t.Helper()
	if !u.out.Scan() {
		u.t.Fatalf("user client ended: %v", u.out.Err())
	}
	if err := json.Unmarshal(u.out.Bytes(), out); err != nil {
		u.t.Fatalf("user client said %q: %v", u.out.Text(), err)
	}
}

func (u *userClient) send(cmd map[string]any, out any) {
	u.t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := u.in.Write(append(b, '\n')); err != nil {
		u.t.Fatal(err)
	}
	u.read(out)
}

// execute runs a cell as a notebook does and waits for it.
func (u *userClient) execute(code string) userExec {
	u.t.Helper()
	var r userExec
	u.send(map[string]any{"op": "execute", "code": code}, &r)
	return r
}

// submit sends a cell without waiting; wait collects it later.
func (u *userClient) submit(code string) string {
	u.t.Helper()
	var r userExec
	u.send(map[string]any{"op": "execute", "code": code, "wait": false}, &r)
	return r.MsgID
}

func (u *userClient) wait(msgID string) userExec {
	u.t.Helper()
	var r userExec
	u.send(map[string]any{"op": "wait", "msg_id": msgID}, &r)
	return r
}

// foreign returns (and clears) the IOPub messages caused by other clients.
func (u *userClient) foreign() []foreignMsg {
	u.t.Helper()
	var r struct{ Foreign []foreignMsg }
	u.send(map[string]any{"op": "foreign"}, &r)
	return r.Foreign
}

// foreignUntil collects what the user's client saw of other clients until
// it has seen idles idle statuses caused by session (IOPub reaches each
// client on its own time).
func (u *userClient) foreignUntil(session string, idles int) []foreignMsg {
	u.t.Helper()
	var all []foreignMsg
	deadline := time.Now().Add(20 * time.Second)
	for {
		seen := 0
		for _, m := range all {
			if m.ParentSession == session && m.MsgType == "status" && strings.Contains(string(m.Content), `"idle"`) {
				seen++
			}
		}
		if seen >= idles {
			return all
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("the user's client saw %d of %d idle statuses of session %s", seen, idles, session)
		}
		time.Sleep(50 * time.Millisecond)
		all = append(all, u.foreign()...)
	}
}
