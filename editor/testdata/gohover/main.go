// Fixture for the editor channel's Delve test: a struct and a slice live at
// the line marked BREAK.
package main

import "fmt"

type Server struct {
	Host string
	Port int
}

type Config struct {
	Name   string
	Server Server
}

func main() {
	nums := []int{3, 1, 4, 1, 5, 9}
	cfg := Config{Name: "demo", Server: Server{Host: "localhost", Port: 8080}}
	fmt.Println(len(nums), cfg.Server.Port) // BREAK
}
