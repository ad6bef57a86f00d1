// nextrequest_test.go: NextRequest skips a malformed frame (reported) and
// what is not a request, returns a request's arguments, and the stream's
// end.

package dap

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestNextRequest(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	in := frame(`{"seq":1,"type":"event","event":"x"}`) +
		"Content-Length: nope\r\n\r\n" +
		frame(`{"seq":2,"type":"request","command":"evaluate","arguments":{"expression":"df"}}`) +
		frame(`{"seq":3,"type":"request","command":"threads"}`)
	var bad []error
	r := NewReader(strings.NewReader(in))
	env, args, err := NextRequest(r, func(err error) { bad = append(bad, err) })
	if err != nil || env.Command != "evaluate" || env.Seq != 2 || string(args) != `{"expression":"df"}` || len(bad) != 1 {
		t.Fatalf("first: %+v %s %v (bad %v)", env, args, err, bad)
	}
	if env, args, err = NextRequest(r, func(error) {}); err != nil || env.Command != "threads" || args != nil {
		t.Fatalf("second: %+v %s %v", env, args, err)
	}
	if _, _, err = NextRequest(r, func(error) {}); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v", err)
	}
}
