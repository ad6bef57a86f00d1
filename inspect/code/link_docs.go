// link_docs.go maps code mentions in Markdown to the code graph.

package code

import (
	"strings"
)

// mentionTargets maps a Markdown mention to at most three code entities.
func (g *graph) mentionTargets(m string) []int32 {
	m = strings.TrimSuffix(m, "()")
	if len(m) < 3 {
		return nil
	}
	pick := func(ids []int32) []int32 {
		var out []int32
		for _, id := range ids {
			e := &g.ents[id]
			if e.file.Lang == "markdown" || e.isTest() {
				continue
			}
			out = append(out, id)
		}
		if len(out) == 0 || len(out) > 3 {
			return nil
		}
		return out
	}
	if ids := pick(g.byQual[m]); ids != nil {
		return ids
	}
	return pick(g.suffixes()[m])
}
