// parse_markdown.go indexes Markdown documents: every ATX heading becomes a
// "doc-section" definition spanning up to the next heading of the same or a
// higher level, and the identifiers it mentions (inline code spans, calls and
// imports in fenced code blocks) are kept so docs can be linked to symbols.

package code

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	mdHeading  = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$`)
	mdFence    = regexp.MustCompile("^ {0,3}(```|~~~)")
	mdCodeSpan = regexp.MustCompile("`([^`\n]+)`")
	mdIdent    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	mdCall     = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(`)
	mdImport   = regexp.MustCompile(`^\s*(?:from\s+([\w.]+)\s+)?import\s+([\w., ]+)`)
)

// parseMarkdown fills fr.Defs with one doc-section per heading.
func parseMarkdown(fr *fileRec, src []byte) {
	fr.Module = fr.Path
	lines := strings.Split(string(src), "\n")
	type open struct {
		idx   int // index into fr.Defs
		level int
	}
	var stack []open
	seen := map[string]int{}
	inFence := false
	cur := -1 // def receiving mentions and text
	var para []string
	addMention := func(m string) {
		if m == "" || len(m) < 2 {
			return
		}
		if cur < 0 {
			if !contains(fr.Mentions, m) && len(fr.Mentions) < 200 {
				fr.Mentions = append(fr.Mentions, m)
			}
			return
		}
		d := &fr.Defs[cur]
		if !contains(d.Mentions, m) && len(d.Mentions) < 100 {
			d.Mentions = append(d.Mentions, m)
		}
	}
	flushPara := func() {
		if cur >= 0 && fr.Defs[cur].Doc == "" && len(para) > 0 {
			fr.Defs[cur].Doc = strings.Join(para, " ")
		}
		para = para[:0]
	}
	for i, ln := range lines {
		lineNo := i + 1
		if mdFence.MatchString(ln) {
			inFence = !inFence
			flushPara()
			continue
		}
		if inFence {
			for _, m := range mdCall.FindAllStringSubmatch(ln, -1) {
				addMention(m[1])
			}
			if m := mdImport.FindStringSubmatch(ln); m != nil {
				for _, n := range strings.Split(m[2], ",") {
					n = strings.TrimSpace(strings.Split(strings.TrimSpace(n), " ")[0])
					if m[1] != "" {
						addMention(m[1] + "." + n)
					} else {
						addMention(n)
					}
				}
			}
			continue
		}
		if m := mdHeading.FindStringSubmatch(ln); m != nil {
			flushPara()
			level := len(m[1])
			title := strings.TrimSpace(m[2])
			if title == "" {
				continue
			}
			for len(stack) > 0 && stack[len(stack)-1].level >= level {
				fr.Defs[stack[len(stack)-1].idx].End = lineNo - 1
				stack = stack[:len(stack)-1]
			}
			name := title
			if n := seen[title]; n > 0 {
				name = title + " (" + strconv.Itoa(n+1) + ")"
			}
			seen[title]++
			parent := ""
			if len(stack) > 0 {
				parent = fr.Defs[stack[len(stack)-1].idx].Name
			}
			fr.Defs = append(fr.Defs, def{Name: name, Kind: "doc-section", Start: lineNo, End: len(lines), Parent: parent})
			cur = len(fr.Defs) - 1
			stack = append(stack, open{idx: cur, level: level})
			for _, cs := range mdCodeSpan.FindAllStringSubmatch(title, -1) {
				addMention(mdIdent.FindString(cs[1]))
			}
			continue
		}
		for _, cs := range mdCodeSpan.FindAllStringSubmatch(ln, -1) {
			addMention(mdIdent.FindString(strings.TrimSpace(cs[1])))
		}
		if t := strings.TrimSpace(ln); t == "" {
			flushPara()
		} else if len(para) < 20 {
			para = append(para, t)
		}
	}
	flushPara()
	// A trailing newline makes the last "line" empty; end spans on real text.
	n := len(lines)
	if n > 0 && lines[n-1] == "" {
		n--
	}
	for i := range fr.Defs {
		if fr.Defs[i].End > n {
			fr.Defs[i].End = n
		}
		if fr.Defs[i].End < fr.Defs[i].Start {
			fr.Defs[i].End = fr.Defs[i].Start
		}
	}
	if len(fr.Defs) > 0 && fr.Defs[0].Start == 1 {
		fr.Doc = fr.Defs[0].Doc
	}
}
