// splice_test.go: string values replaced in place, every other byte kept.

package dap

import (
	"strings"
	"testing"
)

func TestSpliceStrings(t *testing.T) {
	msg := `{"seq":9, "type":"response","body":{"variables":[{"name":"df","value":"   a  b\n0  1  2","type":"DataFrame","variablesReference":12,"evaluateName":"df"},` +
		`{"name":"n","value":"3","type":"int","variablesReference":0}],"extra":1.50},"success":true}`
	got, err := SpliceStrings([]byte(msg), []StringEdit{
		{Path: []string{"body", "variables", "0", "value"}, Value: "DataFrame 1 × 2 · \"q\" é"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(msg, `"   a  b\n0  1  2"`, `"DataFrame 1 × 2 · \"q\" é"`, 1)
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// Several edits, out of order; the evaluate form.
	ev := `{"body":{"result":"x","type":"ndarray"},"list":[["value"],{"value":"keep"}]}`
	got, err = SpliceStrings([]byte(ev), []StringEdit{{Path: []string{"list", "1", "value"}, Value: "B"}, {Path: []string{"body", "result"}, Value: "A"}})
	if err != nil || string(got) != `{"body":{"result":"A","type":"ndarray"},"list":[["value"],{"value":"B"}]}` {
		t.Fatalf("got %s, %v", got, err)
	}
	// A path that is not a string: an error, the message unchanged.
	for _, p := range [][]string{{"body", "type", "x"}, {"list", "0"}, {"nope"}} {
		got, err = SpliceStrings([]byte(ev), []StringEdit{{Path: p, Value: "z"}})
		if err == nil || string(got) != ev {
			t.Errorf("path %v: want an error and the message unchanged, got %s, %v", p, got, err)
		}
	}
	if _, err := SpliceStrings([]byte(`{"a":`), []StringEdit{{Path: []string{"a"}, Value: "z"}}); err == nil {
		t.Error("truncated JSON must fail")
	}
}

func FuzzSpliceStrings(f *testing.F) {
	f.Add(`{"body":{"result":"x"}}`, "y")
	f.Add(`{"body":{"result":"\u00e9\"x"},"b":[1,2,{"result":"q"}]}`, "")
	f.Fuzz(func(t *testing.T, msg, v string) {
		got, err := SpliceStrings([]byte(msg), []StringEdit{{Path: []string{"body", "result"}, Value: v}})
		if err != nil {
			if string(got) != msg {
				t.Fatal("an error must leave the message unchanged")
			}
			return
		}
		var again []byte
		if again, err = SpliceStrings(got, []StringEdit{{Path: []string{"body", "result"}, Value: v}}); err != nil || string(again) != string(got) {
			t.Fatalf("splicing the same value twice must be stable: %v", err)
		}
	})
}
