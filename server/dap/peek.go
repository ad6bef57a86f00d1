// peek.go: Peek, the envelope of a DAP body read in one validating pass
// that decodes only the routing fields (seq, type, command, event,
// request_seq, success, message) and skips every other value without
// building it. encoding/json took two full passes (a validity scan, then a
// decode that skips the body) — 0.3 ms on a 10 KB evaluate answer, paid on
// every message the sidecar routes.

package dap

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxDepth bounds nesting like encoding/json does.
const maxDepth = 10000

// Peek decodes the envelope of a body. The whole body must be one valid
// JSON object; keys match exactly (DAP is case-sensitive); a later
// duplicate key wins, as in encoding/json.
func Peek(body []byte) (Envelope, error) {
	e, _, err := PeekBody(body)
	return e, err
}

// PeekBody is Peek that also returns the raw bytes of the message's "body"
// value (nil when absent), found in the same pass: the mux hands them on
// without decoding the message again.
func PeekBody(body []byte) (Envelope, []byte, error) {
	var raw []byte
	e, err := peekFields(body, &raw)
	if err != nil {
		return e, nil, &FrameError{Reason: "body is not a JSON object: " + err.Error()}
	}
	switch e.Type {
	case "request":
		if e.Command == "" {
			return e, nil, &FrameError{Reason: "request without command"}
		}
	case "response":
		if e.Command == "" && e.RequestSeq == 0 {
			return e, nil, &FrameError{Reason: "response without command/request_seq"}
		}
	case "event":
		if e.Event == "" {
			return e, nil, &FrameError{Reason: "event without name"}
		}
	default:
		return e, nil, &FrameError{Reason: fmt.Sprintf("unknown message type %q", e.Type)}
	}
	return e, raw, nil
}

type scan struct {
	b []byte
	i int
}

func (s *scan) errf(format string, a ...any) error {
	return fmt.Errorf("offset %d: "+format, append([]any{s.i}, a...)...)
}

func (s *scan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// ResponseOf is the response peeked as env with its raw body value (from
// PeekBody; a null body is none).
func ResponseOf(env Envelope, raw []byte) *Response {
	if string(raw) == "null" {
		raw = nil
	}
	return &Response{Seq: env.Seq, Type: env.Type, RequestSeq: env.RequestSeq, Command: env.Command,
		Message: env.Message, Success: env.Success != nil && *env.Success, Body: raw}
}

// peekFields reads the envelope; with body set, it also keeps the raw
// bytes of the top-level "body" value (nil when absent).
func peekFields(b []byte, body *[]byte) (Envelope, error) {
	var e Envelope
	s := &scan{b: b}
	s.ws()
	if s.i >= len(b) || b[s.i] != '{' {
		return e, s.errf("want an object")
	}
	s.i++
	s.ws()
	if s.i < len(b) && b[s.i] == '}' {
		s.i++
	} else {
		for {
			s.ws()
			keyAt := s.i
			key, err := s.str()
			if err != nil {
				return e, err
			}
			keyEnd := s.i
			s.ws()
			if s.i >= len(b) || b[s.i] != ':' {
				return e, s.errf("want ':' after a key")
			}
			s.i++
			s.ws()
			start := s.i
			if err := s.value(1); err != nil {
				return e, err
			}
			if !plain(key) { // an escaped key means what it decodes to
				var k string
				if json.Unmarshal(b[keyAt:keyEnd], &k) == nil {
					key = []byte(k)
				}
			}
			if body != nil && string(key) == "body" {
				*body = b[start:s.i]
			}
			if err := e.set(key, b[start:s.i]); err != nil {
				return e, err
			}
			s.ws()
			if s.i < len(b) && b[s.i] == ',' {
				s.i++
				continue
			}
			if s.i < len(b) && b[s.i] == '}' {
				s.i++
				break
			}
			return e, s.errf("want ',' or '}' in an object")
		}
	}
	s.ws()
	if s.i != len(b) {
		return e, s.errf("data after the object")
	}
	return e, nil
}

// set stores one routing field from its raw (valid) JSON value; other keys
// are ignored. null leaves a field as it is, as encoding/json does.
func (e *Envelope) set(key []byte, raw []byte) error {
	var dst any
	switch string(key) {
	case "seq":
		dst = &e.Seq
	case "request_seq":
		dst = &e.RequestSeq
	case "type":
		dst = &e.Type
	case "command":
		dst = &e.Command
	case "event":
		dst = &e.Event
	case "message":
		dst = &e.Message
	case "success":
		switch string(raw) {
		case "true", "false":
			v := raw[0] == 't'
			e.Success = &v
			return nil
		}
		return json.Unmarshal(raw, &e.Success)
	default:
		return nil
	}
	if string(raw) == "null" {
		return nil
	}
	switch p := dst.(type) {
	case *int:
		if n, err := strconv.Atoi(string(raw)); err == nil {
			*p = n
			return nil
		}
	case *string:
		if len(raw) >= 2 && raw[0] == '"' && plain(raw[1:len(raw)-1]) {
			*p = string(raw[1 : len(raw)-1])
			return nil
		}
	}
	return json.Unmarshal(raw, dst) // escapes, wrong types, overflow: the library's answer
}

// plain: no escapes and valid UTF-8 (the bytes are the string).
func plain(b []byte) bool {
	ascii := true
	for _, c := range b {
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(b)
}

// str reads a string and returns its raw contents (escapes left in).
func (s *scan) str() ([]byte, error) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, s.errf("want a string")
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return nil, s.errf("unterminated escape")
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) {
					return nil, s.errf("short \\u escape")
				}
				for _, h := range s.b[s.i+2 : s.i+6] {
					if !isHex(h) {
						return nil, s.errf("bad \\u escape")
					}
				}
				s.i += 6
			default:
				return nil, s.errf("bad escape")
			}
		case c < 0x20:
			return nil, s.errf("control character in a string")
		default:
			s.i++
		}
	}
	return nil, s.errf("unterminated string")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// value skips one JSON value, checking it.
func (s *scan) value(depth int) error {
	if depth > maxDepth {
		return s.errf("nested too deep")
	}
	if s.i >= len(s.b) {
		return s.errf("want a value")
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, err := s.str()
		return err
	case c == '{', c == '[':
		return s.container(c, depth)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return s.errf("unexpected %q", s.b[s.i])
}

func (s *scan) container(open byte, depth int) error {
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == closer {
		s.i++
		return nil
	}
	for {
		s.ws()
		if open == '{' {
			if _, err := s.str(); err != nil {
				return err
			}
			s.ws()
			if s.i >= len(s.b) || s.b[s.i] != ':' {
				return s.errf("want ':' after a key")
			}
			s.i++
			s.ws()
		}
		if err := s.value(depth + 1); err != nil {
			return err
		}
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
			continue
		}
		if s.i < len(s.b) && s.b[s.i] == closer {
			s.i++
			return nil
		}
		return s.errf("want ',' or %q", closer)
	}
}

func (s *scan) lit(word string) error {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.errf("bad literal")
	}
	s.i += len(word)
	return nil
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scan) number() error {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return s.errf("bad number")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return s.errf("bad fraction")
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return s.errf("bad exponent")
		}
	}
	return nil
}
