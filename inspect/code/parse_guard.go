// parse_guard.go: the third-party JavaScript parser (sobek) and the walk
// over its tree run on any file of the workspace, an untrusted
// repository's included: a panic in them is that file's parse error (the
// file then has no graph), never the sidecar's end (issue #37).

package code

// parseJSGuarded is parseJS behind guard.
func parseJSGuarded(fr *fileRec, src string) {
	guard(fr, func() { parseJS(fr, src) })
}

// guard runs parse; a panic in it leaves fr without a graph and with a
// parse error.
func guard(fr *fileRec, parse func()) {
	defer func() {
		if p := recover(); p != nil {
			fr.Doc, fr.Imports, fr.Exports, fr.Calls, fr.Defs = "", nil, nil, nil, nil
			fr.Err = "the parser failed on this file"
		}
	}()
	parse()
}
