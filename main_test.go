// main_test.go: the subcommand table is sorted by name without duplicates
// (usage prints it in table order).

package main

import "testing"

func TestCommandTableSorted(t *testing.T) {
	for i, c := range commands {
		if c.name == "" || c.summary == "" || c.run == nil {
			t.Errorf("command %d (%q) is incomplete", i, c.name)
		}
		if i > 0 && commands[i-1].name >= c.name {
			t.Errorf("commands not sorted or duplicated: %q before %q", commands[i-1].name, c.name)
		}
		if got, ok := lookup(c.name); !ok || got.name != c.name {
			t.Errorf("lookup(%q) = %q, %v", c.name, got.name, ok)
		}
	}
	if _, ok := lookup("nosuchcmd"); ok {
		t.Error("lookup found an unknown command")
	}
}
