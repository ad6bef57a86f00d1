// Package dap holds the sidecar's own DAP wire layer: Content-Length framing
// over raw bytes (this file), a small envelope decoder for routing
// (envelope.go), and message builders. Bodies are kept as raw bytes so
// messages the sidecar does not intercept pass through untouched.
package dap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/dapscope/dapscope/inspect/clip"
)

// MaxFrame is the largest body accepted or written (16 MiB): debugpy's
// adapter silently drops the session on anything larger.
const MaxFrame = 16 << 20

// maxHeaderLine bounds one header line so a peer sending garbage without a
// newline cannot make the reader buffer without limit.
const maxHeaderLine = 4096

// ErrFrameTooLarge reports a Content-Length above the limit.
var ErrFrameTooLarge = errors.New("dap: frame exceeds 16 MiB limit")

// FrameError is a malformed header or body; the connection cannot continue.
type FrameError struct{ Reason string }

func (e *FrameError) Error() string { return "dap: malformed frame: " + e.Reason }

// Reader reads Content-Length framed messages.
type Reader struct {
	br  *bufio.Reader
	max int
}

// NewReader returns a Reader with the default 16 MiB limit.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: MaxFrame}
}

// SetLimit changes the largest body accepted.
func (r *Reader) SetLimit(n int) { r.max = n }

// ReadFrame returns the next message body. It returns io.EOF only on a clean
// end between frames; a truncated frame is io.ErrUnexpectedEOF.
func (r *Reader) ReadFrame() ([]byte, error) {
	length := -1
	sawHeader := false
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && sawHeader {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if len(line) == 0 {
			if !sawHeader {
				continue // tolerate stray blank lines between frames
			}
			break
		}
		sawHeader = true
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			shown, _ := clip.Bytes.Prefix(string(line), 64)
			return nil, &FrameError{Reason: fmt.Sprintf("header line without name: %q", shown)}
		}
		name := bytes.TrimSpace(line[:colon])
		if !bytes.EqualFold(name, []byte("Content-Length")) {
			continue // other headers (Content-Type) are allowed and ignored
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(line[colon+1:])))
		if err != nil || n < 0 {
			shown, _ := clip.Bytes.Prefix(string(line[colon+1:]), 32)
			return nil, &FrameError{Reason: fmt.Sprintf("bad Content-Length %q", shown)}
		}
		length = n
	}
	if length < 0 {
		return nil, &FrameError{Reason: "missing Content-Length header"}
	}
	if length > r.max {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, length)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.br, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// readLine reads one CRLF- (or LF-) terminated header line without the
// terminator, bounded by maxHeaderLine.
func (r *Reader) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHeaderLine {
			return nil, &FrameError{Reason: "header line too long"}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, nil
	}
}

// Writer writes framed messages; it is safe for concurrent use and never
// interleaves two frames (one writer per connection).
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteFrame writes header and body in one Write call.
func (w *Writer) WriteFrame(body []byte) error {
	if len(body) > MaxFrame {
		return fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(body))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf[:0], "Content-Length: "...)
	w.buf = strconv.AppendInt(w.buf, int64(len(body)), 10)
	w.buf = append(w.buf, "\r\n\r\n"...)
	w.buf = append(w.buf, body...)
	_, err := w.w.Write(w.buf)
	if cap(w.buf) > 1<<20 {
		w.buf = nil // don't pin a large buffer after a big message
	}
	return err
}

// NextRequest reads the next request of r, for an adapter that lives in
// the sidecar (the bridge's, a kernel's): its envelope and arguments. A
// malformed frame is handed to bad and skipped, anything that is not a
// request (an envelope the adapter never answers) is skipped; the error
// is r's when the stream ends.
func NextRequest(r *Reader, bad func(error)) (Envelope, json.RawMessage, error) {
	for {
		body, err := r.ReadFrame()
		if err != nil {
			var fe *FrameError
			if errors.As(err, &fe) {
				bad(err)
				continue
			}
			return Envelope{}, nil, err
		}
		env, err := Peek(body)
		if err != nil || env.Type != "request" {
			continue
		}
		var req struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(body, &req)
		return env, req.Arguments, nil
	}
}
