// limits.go: the bounds every response and every stored capture obey — the
// 100 KB response cap (largest arrays and strings are cut first, with a
// `truncated: {omitted, notice}` object saying what was cut and how to get
// the rest) and the memory budget shared by stored snapshots and captured
// output (new captures fail clearly; what is stored is kept).
package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dapscope/dapscope/server/session"
)

// Defaults of Options.
const (
	DefaultMaxResponseBytes = 100 * 1024
	DefaultMemoryBudget     = 256 << 20
	maxTextBytes            = 16 * 1024 // the compact text rendering
	envelopeSlack           = 1024      // JSON-RPC envelope around the result
)

// Truncation says what a response left out.
type Truncation struct {
	Omitted int64  `json:"omitted"`
	Notice  string `json:"notice"`
}

// capText bounds the compact text rendering, cutting at a line boundary.
func capText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit - 80
	if i := strings.LastIndexByte(s[:cut], '\n'); i > cut/2 {
		cut = i
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… %d more bytes (see structuredContent)", len(s)-cut)
}

// shrinkJSON cuts the generic JSON value v until its encoding fits limit
// bytes: it repeatedly halves the largest array or string. It returns the
// number of items and bytes omitted.
func shrinkJSON(v any, limit int) (any, int64) {
	var omitted int64
	for i := 0; i < 200; i++ {
		b, _ := json.Marshal(v)
		if len(b) <= limit {
			return v, omitted
		}
		over := len(b) - limit
		// Find the largest container or string.
		type cand struct {
			size   int
			parent any
			key    any
		}
		var best cand
		var walk func(parent any, key any, x any)
		walk = func(parent any, key any, x any) {
			switch t := x.(type) {
			case map[string]any:
				for k, e := range t {
					walk(t, k, e)
				}
			case []any:
				if len(t) > 1 {
					b, _ := json.Marshal(t)
					if len(b) > best.size {
						best = cand{len(b), parent, key}
					}
				}
				for j, e := range t {
					walk(t, j, e)
				}
			case string:
				if len(t) > 64 && len(t) > best.size {
					best = cand{len(t), parent, key}
				}
			}
		}
		walk(nil, nil, v)
		if best.parent == nil {
			return v, omitted // nothing left to cut
		}
		get := func() any {
			switch p := best.parent.(type) {
			case map[string]any:
				return p[best.key.(string)]
			case []any:
				return p[best.key.(int)]
			}
			return nil
		}
		set := func(x any) {
			switch p := best.parent.(type) {
			case map[string]any:
				p[best.key.(string)] = x
			case []any:
				p[best.key.(int)] = x
			}
		}
		switch t := get().(type) {
		case []any:
			keep := len(t) / 2
			if over < best.size/2 {
				keep = max(1, len(t)-len(t)*over/best.size-1)
			}
			omitted += int64(len(t) - keep)
			set(t[:keep])
		case string:
			keep := max(32, len(t)/2)
			if over < len(t)/2 {
				keep = len(t) - over - 16
			}
			for keep > 0 && !utf8.RuneStart(t[keep]) {
				keep--
			}
			omitted += int64(len(t) - keep)
			set(t[:keep] + "…")
		}
	}
	return v, omitted
}

// budget is the memory budget of stored snapshots and captured output.
type budget struct {
	limit int64
	mu    sync.Mutex
	used  map[string]int64 // owner (snapshot id) → bytes
}

func newBudget(limit int64) *budget {
	return &budget{limit: limit, used: map[string]int64{}}
}

// reserve accounts n bytes to owner, or fails with LIMIT_EXCEEDED when the
// stored total plus the output held by live sessions would pass the limit.
func (b *budget) reserve(owner string, n int64, outputBytes int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	total := outputBytes
	for _, u := range b.used {
		total += u
	}
	if total+n > b.limit {
		return &session.Error{Code: session.CodeLimit, Message: fmt.Sprintf(
			"memory budget exceeded: this capture needs %s but %s of %s is in use (snapshots and captured output); "+
				"delete snapshots with debug_snapshot {action: \"delete\"} or end sessions to free memory",
			human(n), human(total), human(b.limit))}
	}
	b.used[owner] = n
	return nil
}

func (b *budget) release(owner string) {
	b.mu.Lock()
	delete(b.used, owner)
	b.mu.Unlock()
}

func (b *budget) stored() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	var t int64
	for _, u := range b.used {
		t += u
	}
	return t
}

func human(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
