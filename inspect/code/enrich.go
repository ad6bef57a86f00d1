// enrich.go derives Enrichment without models: the docstring (summary = the
// first sentence; Google, NumPy and Sphinx sections for parameters, returns
// and raises), the signature (parameters, annotations, result types), the
// body (raise/panic, return expressions, yields, global writes, I/O calls)
// and, for a missing summary, the Markdown section that mentions the entity.

package code

import (
	"regexp"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

const (
	enrichItemMax  = 140 // characters per list item
	enrichListMax  = 8   // items per list
	summaryMaxLen  = 200 // characters of a summary
	sideEffectsMax = 6
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

// enrich builds the Enrichment of entity id.
func (g *graph) enrich(id int32) Enrichment {
	e := &g.ents[id]
	en := Enrichment{Inputs: []string{}, Outputs: []string{}, SideEffects: []string{}, Pitfalls: []string{}}
	evidence := 0
	if e.d == nil {
		if e.file.Doc != "" {
			en.Summary = firstSentence(e.file.Doc)
			evidence++
		}
		if se := sideEffects(e.file, e.file.Calls, nil); len(se) > 0 {
			en.SideEffects = se
			evidence++
		}
		en.EvidenceCount = evidence
		return en
	}
	d := e.d
	di := parseDoc(d.Doc)
	if d.Doc != "" {
		evidence++
	}
	en.Summary = di.summary
	if e.kind == "doc-section" {
		en.EvidenceCount = evidence
		return en
	}
	// Signature (a class's signature is its constructor's).
	sig := d
	if e.kind == "class" {
		sig = nil
		for _, ch := range e.children {
			if c := g.ents[ch].d; c != nil && c.Name == d.Name+".__init__" {
				sig = c
				if di2 := parseDoc(c.Doc); len(di2.params) > 0 && len(di.params) == 0 {
					di.params = di2.params
				}
			}
		}
	}
	typed := false
	if sig != nil {
		for i, p := range sig.Params {
			if i == 0 && (p.Name == "self" || p.Name == "cls") && e.file.Lang == "python" {
				continue
			}
			s := p.Name
			if p.Type != "" {
				s += ": " + p.Type
				typed = true
			}
			if p.HasDef {
				s += " = " + p.Default
			}
			if desc := di.params[strings.TrimLeft(p.Name, "*")]; desc != "" {
				s += " — " + desc
			}
			en.Inputs = appendItem(en.Inputs, s)
		}
	}
	if e.kind != "class" {
		switch {
		case d.Returns != "" && d.Returns != "None":
			typed = true
			s := d.Returns
			if di.returns != "" {
				s += " — " + di.returns
			}
			en.Outputs = appendItem(en.Outputs, s)
		case di.returns != "":
			en.Outputs = appendItem(en.Outputs, di.returns)
		case len(d.RetExprs) > 0:
			en.Outputs = appendItem(en.Outputs, "returns "+strings.Join(d.RetExprs, " | "))
		}
		if d.Yields {
			s := "generator"
			if di.yields != "" {
				s += " — yields " + di.yields
			}
			en.Outputs = appendItem(en.Outputs, s)
		}
	}
	if typed {
		evidence++
	}
	// Body.
	body := false
	docRaise := map[string]string{}
	for _, r := range di.raises {
		docRaise[r.head] = r.body
	}
	for _, r := range d.Raises {
		body = true
		switch r {
		case "panic":
			en.Pitfalls = appendItem(en.Pitfalls, "may panic")
		case "(re-raise)":
			en.Pitfalls = appendItem(en.Pitfalls, "re-raises the exception it is handling")
		default:
			s := "raises " + r
			if desc := docRaise[r]; desc != "" {
				s += ": " + desc
			}
			delete(docRaise, r)
			en.Pitfalls = appendItem(en.Pitfalls, s)
		}
	}
	for _, r := range di.raises {
		if _, left := docRaise[r.head]; left {
			s := "raises " + r.head
			if r.body != "" {
				s += ": " + r.body
			}
			en.Pitfalls = appendItem(en.Pitfalls, s)
		}
	}
	if e.file.Lang == "go" && (d.Returns == "error" || strings.HasSuffix(d.Returns, ", error)")) {
		en.Pitfalls = appendItem(en.Pitfalls, "returns an error the caller must check")
	}
	if se := sideEffects(e.file, d.Calls, d.Globals); len(se) > 0 {
		body = true
		en.SideEffects = se
	}
	if len(d.RetExprs) > 0 || d.Yields {
		body = true
	}
	if body {
		evidence++
	}
	if en.Summary == "" {
		for _, did := range e.docs {
			if s := firstSentence(g.ents[did].d.Doc); s != "" {
				en.Summary = s
				evidence++
				break
			}
		}
	}
	en.EvidenceCount = evidence
	return en
}

func appendItem(xs []string, s string) []string {
	if len(xs) >= enrichListMax {
		return xs
	}
	s = clip.Runes.Fit(strings.Join(strings.Fields(s), " "), enrichItemMax)
	if contains(xs, s) {
		return xs
	}
	return append(xs, s)
}

// sideEffects classifies calls (after resolving import aliases) and global
// writes into short descriptions.
func sideEffects(fr *fileRec, calls []call, globals []string) []string {
	var out []string
	add := func(s string) {
		if len(out) < sideEffectsMax && !contains(out, s) {
			out = append(out, s)
		}
	}
	alias := map[string]string{}
	for _, im := range fr.Imports {
		alias[im.Name] = im.Target
	}
	for _, c := range calls {
		name := c.Name
		head, rest, dotted := strings.Cut(name, ".")
		if t, ok := alias[head]; ok {
			if dotted {
				name = t + "." + rest
			} else {
				name = t
			}
		}
		if s := classifyCall(fr.Lang, name); s != "" {
			add(s)
		}
	}
	for _, gname := range globals {
		if fr.Lang == "go" {
			add("writes package variable " + gname)
		} else {
			add("writes global " + gname)
		}
	}
	return out
}

func classifyCall(lang, name string) string {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if lang == "go" {
		switch {
		case strings.HasPrefix(name, "fmt.Print"), strings.HasPrefix(name, "fmt.Fprint"):
			return "writes output (" + name + ")"
		case strings.HasPrefix(name, "log.") || strings.HasPrefix(name, "log/slog."):
			return "logs (" + name + ")"
		case strings.HasPrefix(name, "os/exec."):
			return "runs a subprocess (" + name + ")"
		case strings.HasPrefix(name, "net/http.") || strings.HasPrefix(name, "net."):
			return "network I/O (" + name + ")"
		case name == "os.Exit":
			return "exits the process"
		case strings.HasPrefix(name, "os."):
			switch last {
			case "Create", "OpenFile", "WriteFile", "Remove", "RemoveAll", "Rename", "Mkdir", "MkdirAll", "Chmod", "Chdir", "Setenv", "Symlink", "Truncate":
				return "filesystem write (" + name + ")"
			case "Open", "ReadFile", "ReadDir", "Stat", "Getenv":
				return "filesystem/env read (" + name + ")"
			}
		case strings.HasPrefix(name, "?.") || strings.Contains(name, "."):
			switch last {
			case "Write", "WriteString", "WriteTo":
				return "writes to a writer (." + last + ")"
			}
		}
		return ""
	}
	switch name {
	case "open", "io.open", "codecs.open":
		return "opens files (" + name + ")"
	case "print":
		return "writes to stdout (print)"
	case "input":
		return "reads stdin (input)"
	case "sys.exit", "os._exit", "exit", "quit":
		return "exits the process (" + name + ")"
	case "time.sleep":
		return "sleeps (time.sleep)"
	}
	for _, p := range []struct{ prefix, what string }{
		{"subprocess.", "runs a subprocess"}, {"os.system", "runs a subprocess"}, {"os.popen", "runs a subprocess"},
		{"shutil.", "filesystem write"}, {"os.remove", "filesystem write"}, {"os.unlink", "filesystem write"},
		{"os.rename", "filesystem write"}, {"os.replace", "filesystem write"}, {"os.makedirs", "filesystem write"},
		{"os.mkdir", "filesystem write"}, {"os.rmdir", "filesystem write"}, {"os.chdir", "changes the working directory"},
		{"os.environ", "environment access"}, {"os.putenv", "environment write"}, {"os.getenv", "environment read"},
		{"requests.", "network I/O"}, {"urllib.", "network I/O"}, {"http.", "network I/O"}, {"socket.", "network I/O"},
		{"logging.", "logs"}, {"logger.", "logs"}, {"log.", "logs"}, {"warnings.warn", "emits warnings"},
		{"json.dump", "writes serialized data"}, {"pickle.dump", "writes serialized data"}, {"sys.stdout.", "writes to stdout"},
		{"sys.stderr.", "writes to stderr"},
	} {
		if strings.HasPrefix(name, p.prefix) {
			if name == "json.dumps" || name == "pickle.dumps" {
				return ""
			}
			return p.what + " (" + name + ")"
		}
	}
	switch last {
	case "write", "writelines":
		return "writes to a file/stream (." + last + ")"
	case "to_csv", "to_parquet", "to_excel", "to_json", "to_pickle", "to_sql", "to_hdf", "to_feather", "savefig":
		if strings.Contains(name, ".") {
			return "writes files (." + last + ")"
		}
	}
	return ""
}
