// listen_windows_test.go: the private pipe's ACL has one entry, for this
// process's user (read from the listener's own handle: opening the pipe by
// name would take its one instance).

package platform

import (
	"net"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

func checkPrivate(t *testing.T, ln net.Listener, addr string) {
	t.Helper()
	path, ok := strings.CutPrefix(addr, PipePrefix)
	if !ok || !strings.HasPrefix(path, `\\.\pipe\dapscope-`) {
		t.Fatalf("address %q, want pipe:\\\\.\\pipe\\dapscope-…", addr)
	}
	pl, ok := ln.(*pipeListener)
	if !ok {
		t.Fatalf("listener %T, want a pipe", ln)
	}
	sd, err := windows.GetSecurityInfo(pl.handle, windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatalf("reading the pipe's security: %v", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("the pipe has no DACL (anyone may open it): %v", err)
	}
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	if n := dacl.AceCount; n != 1 {
		t.Fatalf("the pipe's DACL has %d entries, want 1 (this user): %s", n, sd)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		t.Fatal(err)
	}
	sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
	if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(tu.User.Sid) {
		t.Fatalf("the pipe's one entry is for %s (type %d), want this user %s", sid, ace.Header.AceType, tu.User.Sid)
	}
}
