package testpython

import "testing"

func TestBelow(t *testing.T) {
	for _, c := range []struct {
		v, want string
		below   bool
	}{
		{"1.6.3", "1.8.6", true}, {"1.8.5", "1.8.6", true}, {"1.8.6", "1.8.6", false},
		{"1.8.22", "1.8.6", false}, {"1.10.0", "1.8.6", false}, {"1.8", "1.8.6", true}, {"1.8.6rc1", "1.8.6", false},
	} {
		if got := Below(c.v, c.want); got != c.below {
			t.Errorf("Below(%q, %q) = %v", c.v, c.want, got)
		}
	}
}
