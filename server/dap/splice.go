// splice.go: replace string values inside a raw DAP message without
// re-encoding it, so every other byte (key order, numbers, spacing) stays
// exactly what the adapter sent. Used to put smart summaries into the
// adapter's own evaluate and variables responses.

package dap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// StringEdit replaces the string at Path (object keys, and array indexes
// as decimal strings, e.g. ["body", "variables", "3", "value"]).
type StringEdit struct {
	Path  []string
	Value string
}

// SpliceStrings returns msg with each edit applied. Every edit's path must
// lead to a string; otherwise an error names it and msg is not changed.
func SpliceStrings(msg []byte, edits []StringEdit) ([]byte, error) {
	if len(edits) == 0 {
		return msg, nil
	}
	want := make(map[string]string, len(edits))
	for _, e := range edits {
		want[pathKey(e.Path)] = e.Value
	}
	type span struct {
		start, end int64
		value      string
	}
	var spans []span
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	// stack of containers: for objects the current key, for arrays the index.
	type frame struct {
		array bool
		key   string
		index int
		isKey bool // object: the next token is a key
	}
	var stack []frame
	path := func() []string {
		p := make([]string, len(stack))
		for i, f := range stack {
			if f.array {
				p[i] = strconv.Itoa(f.index)
			} else {
				p[i] = f.key
			}
		}
		return p
	}
	afterValue := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].isKey = true
			}
		}
	}
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return msg, fmt.Errorf("splice: %w", err)
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{isKey: true})
			case '[':
				stack = append(stack, frame{array: true})
			default:
				stack = stack[:len(stack)-1]
				afterValue()
			}
			continue
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].isKey {
				stack[n-1].key, stack[n-1].isKey = t, false
				continue
			}
			if v, ok := want[pathKey(path())]; ok {
				end := dec.InputOffset()
				start := before + int64(bytes.IndexByte(msg[before:end], '"'))
				spans = append(spans, span{start, end, v})
				delete(want, pathKey(path()))
			}
		}
		afterValue()
	}
	if len(want) > 0 {
		for k := range want {
			return msg, fmt.Errorf("splice: no string at %s", k)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var out bytes.Buffer
	out.Grow(len(msg))
	prev := int64(0)
	for _, s := range spans {
		out.Write(msg[prev:s.start])
		enc, _ := json.Marshal(s.value)
		out.Write(enc)
		prev = s.end
	}
	out.Write(msg[prev:])
	return out.Bytes(), nil
}

func pathKey(p []string) string {
	b, _ := json.Marshal(p)
	return string(b)
}
