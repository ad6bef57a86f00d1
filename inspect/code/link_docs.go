// link_docs.go links Markdown to the code graph: the sections (or files)
// that mention a symbol, by qualified name or a unique dotted suffix.

package code

import (
	"strings"
)

// linkDocs links each Markdown section (or file) to the entities it
// mentions.
func (g *graph) linkDocs() {
	for id := range g.ents {
		e := &g.ents[id]
		if e.file.Lang != "markdown" {
			continue
		}
		var ms []string
		if e.d != nil {
			ms = e.d.Mentions
		} else {
			ms = e.file.Mentions
		}
		for _, m := range ms {
			for _, t := range g.mentionTargets(m) {
				if !containsID(e.mentions, t) {
					e.mentions = append(e.mentions, t)
					g.ents[t].docs = append(g.ents[t].docs, int32(id))
				}
			}
		}
	}
}

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
