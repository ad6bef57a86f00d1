package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/errcode"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRead(t *testing.T) {
	small := write(t, "small.txt", "one\ntwo")
	if b, err := Read(small, 7); err != nil || string(b) != "one\ntwo" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if _, err := Read(small, 6); !errcode.Is(err, errcode.LimitExceeded) || !strings.Contains(err.Error(), "larger than 6 bytes") {
		t.Fatalf("Read over the limit = %v", err)
	}
	if b, more, err := Head(small, 3); err != nil || !more || string(b) != "one" {
		t.Fatalf("Head = %q %v %v", b, more, err)
	}
	if n, err := CountLines(small, 100); err != nil || n != 2 {
		t.Fatalf("CountLines = %d, %v", n, err)
	}
	if _, err := CountLines(small, 3); !errcode.Is(err, errcode.LimitExceeded) {
		t.Fatalf("CountLines over the limit = %v", err)
	}
	if _, err := Read(t.TempDir(), 100); !errcode.Is(err, errcode.InvalidPath) || !strings.Contains(err.Error(), "a directory") {
		t.Fatalf("Read of a directory = %v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "absent"), 100); !os.IsNotExist(err) {
		t.Fatalf("Read of nothing = %v", err)
	}
	if Size(8<<20) != "8 MiB" || Size(512<<10) != "512 KiB" || Size(100) != "100 bytes" {
		t.Fatal(Size(8<<20), Size(512<<10), Size(100))
	}
}
