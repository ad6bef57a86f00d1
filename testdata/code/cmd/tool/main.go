// Command tool prints a sum using mathx.
package main

import (
	"fmt"

	"example.com/fixture/mathx"
)

func main() {
	acc := mathx.NewAcc()
	acc.Add(mathx.Sum([]int{1, 2, 3}))
	fmt.Println(acc.Total())
}
