// A small Go program for the Delve tests.
package main

import "fmt"

type point struct {
	X, Y int
	Name string
}

func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total // line 16: breakpoint
}

func main() {
	xs := []int{1, 2, 3, 4}
	m := map[string]int{"a": 1, "b": 2}
	p := &point{X: 3, Y: 4, Name: "p"}
	fmt.Println(sum(xs), len(m), p.Name)
}
