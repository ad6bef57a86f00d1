// store.go holds the on-disk encoding of the index: a versioned gob stream
// of per-file records under .dapscope/code-index.gob. Gob decodes several
// times faster than JSON for a large repository, which keeps warm Opens cheap.

package code

import (
	"encoding/gob"
	"io"
)

func encodeStore(w io.Writer, s *store) error { return gob.NewEncoder(w).Encode(s) }

func decodeStore(r io.Reader, s *store) error { return gob.NewDecoder(r).Decode(s) }
