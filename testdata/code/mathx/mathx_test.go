package mathx

import "testing"

func TestSum(t *testing.T) {
	if Sum([]int{1, 2}) != 3 {
		t.Fatal("bad sum")
	}
}

func TestAcc_Add(t *testing.T) {
	a := NewAcc()
	a.Add(2)
	if got, _ := a.Total(); got != 2 {
		t.Fatal(got)
	}
}

// sumOf is a test helper; tests calling it exercise Sum.
func sumOf(xs ...int) int { return Sum(xs) }

func TestSumVariadic(t *testing.T) {
	if sumOf(1, 2, 3) != 6 {
		t.Fatal("bad sum")
	}
}
