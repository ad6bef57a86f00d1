// evalerror_test.go: adapters' evaluate errors read as the program's error.

package session

import "testing"

func TestParseEvalError(t *testing.T) {
	for _, tc := range []struct {
		msg        string
		typ, text  string
		notInScope bool
	}{
		{"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nNameError: name 'nope' is not defined\n", "NameError", "name 'nope' is not defined", true},
		{"Traceback (most recent call last):\nZeroDivisionError: division by zero", "ZeroDivisionError", "division by zero", false},
		{"Traceback (most recent call last):\nKeyboardInterrupt", "KeyboardInterrupt", "", false},
		{"could not find symbol value for nope", "", "could not find symbol value for nope", true},
		{"Unable to evaluate expression: 1 + \"a\": mismatched types", "", "Unable to evaluate expression: 1 + \"a\": mismatched types", false},
	} {
		d := ParseEvalError(tc.msg)
		if d.Type != tc.typ || d.Message != tc.text || d.NotInScope != tc.notInScope {
			t.Errorf("%q → %+v, want %q %q %v", tc.msg, d, tc.typ, tc.text, tc.notInScope)
		}
	}
}
