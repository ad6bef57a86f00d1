// docstring.go parses docstrings without models: the summary (the first
// sentence) and the Google, NumPy and Sphinx sections for parameters,
// returns, yields and raises.

package code

import (
	"regexp"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

type docEntry struct{ head, body string }

type docInfo struct {
	summary string
	params  map[string]string
	returns string
	yields  string
	raises  []docEntry // head = exception name, body = description
}

var (
	googleSection  = regexp.MustCompile(`^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns|Return|Yields|Yield|Raises|Raise|Throws|Examples?|Notes?|Warnings?|See Also|Attributes|References|Methods|Todo):\s*$`)
	numpyUnderline = regexp.MustCompile(`^\s*-{3,}\s*$`)
	sphinxField    = regexp.MustCompile(`^:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|except|exception|yields?)\b\s*([^:]*):\s*(.*)$`)
)

func firstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return ""
	}
	// The first paragraph only.
	var para []string
	for _, l := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || googleSection.MatchString(t) || numpyUnderline.MatchString(t) || strings.HasPrefix(t, ":") {
			if len(para) > 0 {
				break
			}
			continue
		}
		para = append(para, t)
	}
	s := strings.Join(para, " ")
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			// Not an abbreviation like "e.g. " or "i.e. ".
			w := s[max(0, i-3) : i+1]
			if strings.HasSuffix(w, "e.g.") || strings.HasSuffix(w, "i.e.") || strings.HasSuffix(w, "etc.") || strings.HasSuffix(w, "vs.") {
				continue
			}
			s = s[:i+1]
			break
		}
	}
	return clip.Runes.Fit(s, summaryMaxLen)
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// parseDoc extracts the sections of a docstring.
func parseDoc(doc string) docInfo {
	di := docInfo{summary: firstSentence(doc), params: map[string]string{}}
	if doc == "" {
		return di
	}
	lines := strings.Split(doc, "\n")
	sections := map[string][]docEntry{}
	cur := ""
	var body []string
	flush := func() {
		if cur == "" {
			body = body[:0]
			return
		}
		base := -1
		for _, l := range body {
			if strings.TrimSpace(l) != "" && (base < 0 || indentOf(l) < base) {
				base = indentOf(l)
			}
		}
		var es []docEntry
		for _, l := range body {
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if indentOf(l) <= base || len(es) == 0 {
				es = append(es, docEntry{head: t})
			} else {
				e := &es[len(es)-1]
				e.body = strings.TrimSpace(e.body + " " + t)
			}
		}
		sections[cur] = append(sections[cur], es...)
		body = body[:0]
	}
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if m := sphinxField.FindStringSubmatch(t); m != nil {
			flush()
			cur = ""
			switch m[1] {
			case "param", "parameter", "arg", "argument", "key", "keyword":
				f := strings.Fields(m[2])
				if len(f) > 0 {
					di.params[f[len(f)-1]] = m[3]
				}
			case "returns", "return":
				di.returns = m[3]
			case "raises", "raise", "except", "exception":
				di.raises = append(di.raises, docEntry{head: strings.TrimSpace(m[2]), body: m[3]})
			case "yields", "yield":
				di.yields = m[3]
			}
			continue
		}
		if googleSection.MatchString(t) {
			flush()
			cur = canonSection(strings.TrimSuffix(t, ":"))
			continue
		}
		if t != "" && i+1 < len(lines) && numpyUnderline.MatchString(lines[i+1]) && len(t) < 30 {
			flush()
			cur = canonSection(t)
			i++
			continue
		}
		if cur != "" {
			body = append(body, lines[i])
		}
	}
	flush()
	for _, e := range sections["params"] {
		name, typ, desc := splitEntry(e)
		if name == "" {
			continue
		}
		if typ != "" && desc == "" {
			desc = typ
		} else if typ != "" && !strings.Contains(desc, typ) {
			desc = "(" + typ + ") " + desc
		}
		di.params[strings.TrimLeft(name, "*")] = desc
	}
	di.returns = firstNonEmpty(di.returns, joinEntries(sections["returns"]))
	di.yields = firstNonEmpty(di.yields, joinEntries(sections["yields"]))
	for _, e := range sections["raises"] {
		name, _, desc := splitEntry(e)
		if name == "" {
			continue
		}
		di.raises = append(di.raises, docEntry{head: name, body: desc})
	}
	return di
}

func canonSection(s string) string {
	switch strings.ToLower(s) {
	case "args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "other parameters":
		return "params"
	case "returns", "return":
		return "returns"
	case "yields", "yield":
		return "yields"
	case "raises", "raise", "throws":
		return "raises"
	}
	return "other"
}

// splitEntry parses "name (type): desc", "name: desc" (Google) or
// "name : type" + body (NumPy).
func splitEntry(e docEntry) (name, typ, desc string) {
	h := e.head
	if n, t, ok := strings.Cut(h, " : "); ok {
		return strings.TrimSpace(n), strings.TrimSpace(t), e.body
	}
	if n, d, ok := strings.Cut(h, ":"); ok && !strings.Contains(strings.TrimSpace(n), " ") || ok && strings.Contains(n, "(") {
		n = strings.TrimSpace(n)
		if i := strings.IndexByte(n, '('); i > 0 {
			typ = strings.Trim(n[i:], "() ")
			n = strings.TrimSpace(n[:i])
		}
		return n, typ, strings.TrimSpace(strings.TrimSpace(d) + " " + e.body)
	}
	if !strings.Contains(h, " ") {
		return h, "", e.body
	}
	return "", "", ""
}

func joinEntries(es []docEntry) string {
	var parts []string
	for _, e := range es {
		s := e.head
		if e.body != "" {
			s += ": " + e.body
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			return strings.TrimSpace(x)
		}
	}
	return ""
}
