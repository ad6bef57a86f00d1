// Values for the inspector's Delve fallback tests: slices, arrays, maps,
// structs, strings and pointers, all live at the line marked BREAK.
package main

import (
	"fmt"
	"strings"
)

type Point struct {
	X, Y  float64
	Label string
}

type Cache struct {
	Items []Point
	Index map[string]int
	Next  *Cache
}

func main() {
	nums := []int{1, 2, 3, 4, 5}
	big := make([]float64, 1000, 1024)
	for i := range big {
		big[i] = float64(i) / 2
	}
	arr := [4]string{"a", "b", "c", "d"}
	ages := map[string]int{"ann": 31, "bob": 42, "cy": 27}
	pt := Point{X: 1.5, Y: -2, Label: "origin"}
	ptr := &pt
	var nilPtr *Point
	cache := Cache{Items: []Point{{1, 1, "a"}, {2, 2, "b"}}, Index: map[string]int{"a": 0, "b": 1}}
	cache.Next = &Cache{}
	text := strings.Repeat("go ", 200)
	empty := []string{}
	var nilSlice []int
	matrix := [][]int{{1, 2}, {3, 4}}
	count := 42
	ratio := 0.25
	ok := true
	fmt.Println(len(nums), len(big), arr[0], len(ages), pt.X, ptr.Y, nilPtr == nil, len(cache.Items), len(text), len(empty), nilSlice == nil, len(matrix), count, ratio, ok) // # BREAK
}
