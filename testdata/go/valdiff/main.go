// Package main is debugged by server/mcp/valdiff_test.go: a struct with a
// map and a counter that change between two stops in the same method.
package main

import "fmt"

type Totals struct {
	ByRegion map[string]float64
	RowsSeen int
	Name     string
}

func (t *Totals) Add(region string, amount float64, n int) int {
	for i := 0; i < n; i++ {
		t.ByRegion[region] += amount
		t.RowsSeen++
	}
	return t.RowsSeen // STOP
}

func main() {
	t := &Totals{ByRegion: map[string]float64{"north": 0, "south": 0}, Name: "q3"}
	t.Add("north", 2.5, 4)
	t.Add("north", 1.5, 2)
	fmt.Println(t.RowsSeen, t.ByRegion["north"])
}
