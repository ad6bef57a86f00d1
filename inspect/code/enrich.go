// enrich.go derives Enrichment without models: the docstring (parsed in
// docstring.go), the signature (parameters, annotations, result types), the
// body (raise/panic, return expressions, yields, global writes, I/O calls)
// and, for a missing summary, the Markdown section that mentions the entity.

package code

import (
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

const (
	enrichItemMax  = 140 // characters per list item
	enrichListMax  = 8   // items per list
	summaryMaxLen  = 200 // characters of a summary
	sideEffectsMax = 6
)

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
			if c := g.ents[ch].d; c != nil && (c.Name == d.Name+".__init__" || c.Name == d.Name+".constructor" && isJSLang(e.file.Lang)) {
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
		if spec, name, ok := splitJSTarget(im.Target); ok { // JS: fs, fs.writeFileSync
			spec = strings.TrimPrefix(spec, "node:")
			if name == "*" || name == "default" {
				alias[im.Name] = spec
			} else {
				alias[im.Name] = spec + "." + name
			}
		}
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
	if isJSLang(lang) {
		return classifyJSCall(name, last)
	}
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

// classifyJSCall names the side effect of a JavaScript call (module
// aliases already resolved: fs.writeFileSync, child_process.spawn).
func classifyJSCall(name, last string) string {
	head, _, _ := strings.Cut(name, ".")
	switch {
	case name == "console.error" || name == "console.warn":
		return "writes to stderr (" + name + ")"
	case head == "console":
		return "writes to stdout (" + name + ")"
	case name == "process.exit" || name == "process.abort":
		return "exits the process (" + name + ")"
	case strings.HasPrefix(name, "process.stdout."):
		return "writes to stdout (" + name + ")"
	case strings.HasPrefix(name, "process.stderr."):
		return "writes to stderr (" + name + ")"
	case head == "child_process":
		return "runs a subprocess (" + name + ")"
	case name == "fetch" || head == "http" || head == "https" || head == "net" || head == "axios":
		return "network I/O (" + name + ")"
	case head == "fs" || strings.HasPrefix(name, "fs/promises"):
		switch {
		case strings.HasPrefix(last, "write"), strings.HasPrefix(last, "append"), strings.HasPrefix(last, "mkdir"),
			strings.HasPrefix(last, "rm"), strings.HasPrefix(last, "unlink"), strings.HasPrefix(last, "rename"),
			strings.HasPrefix(last, "copy"), strings.HasPrefix(last, "cp"), strings.HasPrefix(last, "chmod"),
			strings.HasPrefix(last, "createWriteStream"), strings.HasPrefix(last, "truncate"), strings.HasPrefix(last, "symlink"):
			return "filesystem write (" + name + ")"
		case strings.HasPrefix(last, "read"), strings.HasPrefix(last, "stat"), strings.HasPrefix(last, "exists"),
			strings.HasPrefix(last, "createReadStream"), strings.HasPrefix(last, "access"), strings.HasPrefix(last, "open"):
			return "filesystem read (" + name + ")"
		}
	case head == "setTimeout" || head == "setInterval":
		return "schedules a timer (" + name + ")"
	}
	return ""
}
