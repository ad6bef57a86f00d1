// Package mathx holds small integer helpers for the fixture.
package mathx

import "fmt"

// Calls counts how many values Acc.Add has seen.
var Calls int

// Sum returns the sum of xs. It never fails.
func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// Acc accumulates integers.
type Acc struct {
	total int
}

// NewAcc returns an empty accumulator.
func NewAcc() *Acc { return &Acc{} }

// Add adds x to the running total.
func (a *Acc) Add(x int) {
	a.total += x
	Calls++
	a.log(x)
}

func (a *Acc) log(x int) {
	fmt.Println("added", x)
}

// Total returns the sum so far; it panics when nothing was added.
func (a *Acc) Total() (int, error) {
	if a.total == 0 {
		panic("empty")
	}
	return Sum([]int{a.total}), nil
}

// Pair bumps an accumulator it holds.
type Pair struct {
	acc *Acc
}

// Bump adds one through the held accumulator.
func (p *Pair) Bump() { p.acc.Add(1) }
