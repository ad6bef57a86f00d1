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

	"github.com/dapscope/dapscope/errcode"
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
// bytes. Nested arrays (trees, tables) are cut at their deepest level first,
// all of them in proportion, so the shape of the whole survives; then the
// largest remaining array or string is cut. It returns how many items and
// bytes were omitted.
func shrinkJSON(v any, limit int) (any, int64) {
	var omitted int64
	for i := 0; i < 100; i++ {
		b, _ := json.Marshal(v)
		if len(b) <= limit {
			return v, omitted
		}
		size := len(b)
		// Arrays by nesting depth (arrays inside arrays' elements).
		type arr struct {
			set  func(any)
			a    []any
			size int
		}
		byDepth := map[int][]arr{}
		maxDepth := 0
		var biggest arr
		var walk func(x any, set func(any), depth int)
		walk = func(x any, set func(any), depth int) {
			switch t := x.(type) {
			case map[string]any:
				for k, e := range t {
					walk(e, func(n any) { t[k] = n }, depth)
				}
			case []any:
				eb, _ := json.Marshal(t)
				a := arr{set, t, len(eb)}
				if len(t) > 1 {
					byDepth[depth] = append(byDepth[depth], a)
					maxDepth = max(maxDepth, depth)
					if a.size > biggest.size {
						biggest = a
					}
				}
				for j, e := range t {
					walk(e, func(n any) { t[j] = n }, depth+1)
				}
			case string:
				if len(t) > 64 && len(t) > biggest.size {
					biggest = arr{set: set, size: len(t)}
					biggest.a = nil
					s := t
					biggest.set = func(any) {
						keep := max(32, len(s)/2)
						if over := size - limit; over < len(s)/2 {
							keep = len(s) - over - 16
						}
						for keep > 0 && !utf8.RuneStart(s[keep]) {
							keep--
						}
						omitted += int64(len(s) - keep)
						set(s[:keep] + "…")
					}
				}
			}
		}
		walk(v, func(n any) { v = n }, 0)
		frac := float64(limit) / float64(size)
		deep := byDepth[maxDepth]
		deepSize := 0
		for _, a := range deep {
			deepSize += a.size
		}
		switch {
		case maxDepth > 0 && deepSize > size/2:
			for _, a := range deep {
				keep := max(1, int(float64(len(a.a))*frac))
				if keep >= len(a.a) {
					keep = len(a.a) - 1
				}
				omitted += int64(len(a.a) - keep)
				a.set(a.a[:keep])
			}
		case biggest.size == 0:
			return v, omitted // nothing left to cut
		case biggest.a == nil:
			biggest.set(nil) // a string
		default:
			keep := max(1, min(len(biggest.a)-1, int(float64(len(biggest.a))*frac)))
			omitted += int64(len(biggest.a) - keep)
			biggest.set(biggest.a[:keep])
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
		return &errcode.Error{Code: errcode.LimitExceeded, Message: fmt.Sprintf(
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
