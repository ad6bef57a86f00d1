// This file holds the open text documents (full sync), so hover reads the
// buffer the person sees, saved or not.

package editor

import (
	"context"
	"encoding/json"
	"github.com/dapscope/dapscope/internal/safefile"
	"sync"

	"go.lsp.dev/protocol"
)

type documents struct {
	mu   sync.Mutex
	text map[protocol.DocumentURI]string
}

func newDocuments() *documents { return &documents{text: map[protocol.DocumentURI]string{}} }

func (d *documents) didOpen(_ context.Context, params json.RawMessage) {
	var p protocol.DidOpenTextDocumentParams
	if json.Unmarshal(params, &p) == nil {
		d.mu.Lock()
		d.text[p.TextDocument.URI] = p.TextDocument.Text
		d.mu.Unlock()
	}
}

func (d *documents) didChange(_ context.Context, params json.RawMessage) {
	var p protocol.DidChangeTextDocumentParams
	if json.Unmarshal(params, &p) == nil && len(p.ContentChanges) > 0 {
		d.mu.Lock()
		// Full sync: the last change holds the whole text.
		d.text[p.TextDocument.URI] = p.ContentChanges[len(p.ContentChanges)-1].Text
		d.mu.Unlock()
	}
}

func (d *documents) didClose(_ context.Context, params json.RawMessage) {
	var p protocol.DidCloseTextDocumentParams
	if json.Unmarshal(params, &p) == nil {
		d.mu.Lock()
		delete(d.text, p.TextDocument.URI)
		d.mu.Unlock()
	}
}

// maxDocBytes bounds a document read from disk (one not open in the
// editor): a hover needs one line of it.
const maxDocBytes = 64 << 20

// get returns the document's text: the open buffer, else the file on disk.
func (d *documents) get(u protocol.DocumentURI) (string, bool) {
	d.mu.Lock()
	t, ok := d.text[u]
	d.mu.Unlock()
	if ok {
		return t, true
	}
	f := docFile(u)
	if f == "" {
		return "", false
	}
	b, err := safefile.Read(f, maxDocBytes) // a regular file, bounded
	if err != nil {
		return "", false
	}
	return string(b), true
}
