// kernel_test.go: the kernel kind is a driver no launch reaches: its
// name is refused by ParseKind with the way to attach one, it is not among
// the launchable kinds, and its driver (Python, no process) refuses to
// start or attach by port.

package adapter

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

func TestKernelKind(t *testing.T) {
	if _, err := ParseKind("kernel"); err == nil || !strings.Contains(err.Error(), "kernel_attach") {
		t.Errorf(`ParseKind("kernel") = %v, want a refusal naming kernel_attach`, err)
	}
	if slices.Contains(Kinds(), Kernel) || strings.Contains(KindList("%s"), "kernel") {
		t.Errorf("the kernel kind is listed among the launchable ones: %v", Kinds())
	}
	d, err := DriverFor(Kernel)
	if err != nil || d.Kind() != Kernel || d.Language() != inspect.Python {
		t.Fatalf("DriverFor(Kernel) = %v, %v", d, err)
	}
	if _, err := d.Start(context.Background(), StartConfig{}); err == nil || !strings.Contains(err.Error(), "not launched") {
		t.Errorf("Start = %v, want a refusal", err)
	}
	if _, err := d.Attach("127.0.0.1", 5678); err == nil {
		t.Error("Attach by port succeeded")
	}
}
