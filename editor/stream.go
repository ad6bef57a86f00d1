// stream.go: the editor channel's framing. Messages are LSP-style
// (Content-Length headers). Unlike jsonrpc2's stream, a message that is
// framed correctly but is not a JSON-RPC message (not JSON, a batch, no
// id or method) is answered with a JSON-RPC error and the channel goes on:
// one bad message never ends the editor's channel. A broken header loses
// the framing, so that still ends the connection, with the reason.

package editor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage bounds one incoming message (the extension sends small ones).
const maxMessage = 16 << 20

type stream struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	log  *slog.Logger
	wmu  sync.Mutex // one writer: header and body go out together
}

func newStream(conn io.ReadWriteCloser, log *slog.Logger) *stream {
	return &stream{conn: conn, in: bufio.NewReader(conn), log: log}
}

// Read returns the next JSON-RPC message, answering bad ones on the way.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		data, n, err := s.readFrame()
		total += n
		if err != nil {
			return nil, total, err
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, total, nil
		}
		code, text := jsonrpc2.ParseError, "parse error: the message is not a JSON object: "+err.Error()
		switch trimmed := bytes.TrimSpace(data); {
		case len(trimmed) > 0 && trimmed[0] == '[':
			code, text = jsonrpc2.InvalidRequest, "invalid request: batches are not supported; send one message per frame"
		case json.Valid(trimmed):
			code, text = jsonrpc2.InvalidRequest, "invalid request: "+err.Error()
		}
		s.log.Warn("answering a bad message on the editor channel", "code", code, "bytes", len(data))
		if werr := s.writeRaw(errorResponse(code, text)); werr != nil {
			return nil, total, werr
		}
	}
}

// readFrame reads one Content-Length framed body.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				continue // blank lines between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, total, fmt.Errorf("editor channel: invalid header line %q", clipHeader(line))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				return nil, total, fmt.Errorf("editor channel: invalid Content-Length %q", clipHeader(value))
			}
			if n > maxMessage {
				return nil, total, fmt.Errorf("editor channel: message of %d bytes exceeds the %d-byte limit", n, maxMessage)
			}
			length = n
		}
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, total, fmt.Errorf("editor channel: reading a %d-byte message: %w", length, err)
	}
	return data, total + length, nil
}

func clipHeader(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Write sends one message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return int64(len(data)), s.writeRaw(data)
}

func (s *stream) writeRaw(data []byte) error {
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.conn.Write(frame)
	return err
}

func (s *stream) Close() error { return s.conn.Close() }

// errorResponse is a JSON-RPC error for a message whose id is unknown.
func errorResponse(code jsonrpc2.Code, message string) []byte {
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   any    `json:"error"`
	}{"2.0", nil, map[string]any{"code": code, "message": message}})
	if err != nil {
		panic(errors.New("editor: marshaling a fixed error response")) // unreachable: fixed types
	}
	return b
}
