// validate_test.go: unit tests of the checks on launch specs that need no
// debugger.

package session

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
)

// A refused env key is quoted cut to 80 bytes, before a character that does
// not fit, never inside it.
func TestEnvKeyQuotedWhole(t *testing.T) {
	key := strings.Repeat("K", 79) + "名前"
	err := validateArgsEnv(nil, map[string]string{key: "v"})
	var se *errcode.Error
	if !errors.As(err, &se) || se.Code != errcode.InvalidArgument || se.Field != "env" {
		t.Fatalf("err = %v, want INVALID_ARGUMENT on env", err)
	}
	if want := `"` + strings.Repeat("K", 79) + `…"`; !utf8.ValidString(se.Message) || !strings.Contains(se.Message, want) {
		t.Fatalf("message = %q, want the key quoted as %s", se.Message, want)
	}
}
