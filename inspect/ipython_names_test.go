package inspect

import "testing"

// TestIPythonNames: VARIABLE_NOT_FOUND's suggestions leave out IPython's
// history names (they listed _i1, _oh, _dh).
func TestIPythonNames(t *testing.T) {
	for name, want := range map[string]bool{"_i1": true, "_i42": true, "_3": true, "_oh": true, "_dh": true, "_ih": true, "_": true,
		"_ii": true, "df": false, "_private": false, "_i": true, "_ix": false, "i1": false, "_1a": false, "x_1": false} {
		if got := ipythonName(name); got != want {
			t.Errorf("ipythonName(%q) = %v", name, got)
		}
	}
}
