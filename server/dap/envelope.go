// envelope.go: the few fields the sidecar decodes to route a message, plus
// seq rewriting and builders for the messages it authors itself.

package dap

import (
	"encoding/json"
	"strconv"

	"github.com/dapscope/dapscope/errcode"
)

// Envelope is the routing view of a DAP message; everything else stays raw.
type Envelope struct {
	Seq        int    `json:"seq"`
	Type       string `json:"type"`
	Command    string `json:"command,omitempty"`
	Event      string `json:"event,omitempty"`
	RequestSeq int    `json:"request_seq,omitempty"`
	Success    *bool  `json:"success,omitempty"`
	Message    string `json:"message,omitempty"`
}

// SetInt returns body with the top-level numeric field key set to v. Only
// that field changes; the rest of the bytes are kept as they were.
func SetInt(body []byte, key string, v int) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	m[key] = json.RawMessage(strconv.Itoa(v))
	return json.Marshal(m)
}

// Request is a request the sidecar authors.
type Request struct {
	Seq       int    `json:"seq"`
	Type      string `json:"type"`
	Command   string `json:"command"`
	Arguments any    `json:"arguments,omitempty"`
}

// Response is a response the sidecar authors or decodes for its own
// clients; Body is kept raw for the caller to decode.
type Response struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	RequestSeq int             `json:"request_seq"`
	Command    string          `json:"command"`
	Success    bool            `json:"success"`
	Message    string          `json:"message,omitempty"`
	Body       json.RawMessage `json:"body,omitempty"`
}

// Event is an event as seen by internal clients; Body stays raw.
type Event struct {
	Seq   int             `json:"seq"`
	Type  string          `json:"type"`
	Event string          `json:"event"`
	Body  json.RawMessage `json:"body,omitempty"`
}

// ErrorBody is the DAP error response body.
type ErrorBody struct {
	Error *ErrorMessage `json:"error,omitempty"`
}

// ErrorMessage is DAP's Message structure.
type ErrorMessage struct {
	ID       int    `json:"id"`
	Format   string `json:"format"`
	ShowUser bool   `json:"showUser,omitempty"`
}

// ErrorResponse builds an error response to the request env; its id is the
// code's DAP id (errcode's one table).
func ErrorResponse(seq int, req Envelope, code errcode.Code, msg string) []byte {
	body, _ := json.Marshal(ErrorBody{Error: &ErrorMessage{ID: code.DAPID(), Format: msg}})
	b, _ := json.Marshal(Response{Seq: seq, Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: false, Message: msg, Body: body})
	return b
}

// SuccessResponse builds a success response with the given body.
func SuccessResponse(seq int, req Envelope, body any) ([]byte, error) {
	var raw json.RawMessage
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	return json.Marshal(Response{Seq: seq, Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: true, Body: raw})
}

// ResponseError is a DAP error response returned to an internal client.
type ResponseError struct {
	Command string
	Message string
	ID      int
}

func (e *ResponseError) Error() string {
	if e.Message == "" {
		return e.Command + " failed"
	}
	return e.Command + ": " + e.Message
}

// ResponseErr converts a failed response into a *ResponseError (nil when successful).
func ResponseErr(r *Response) error {
	if r.Success {
		return nil
	}
	e := &ResponseError{Command: r.Command, Message: r.Message}
	var eb ErrorBody
	if len(r.Body) > 0 && json.Unmarshal(r.Body, &eb) == nil && eb.Error != nil {
		e.ID = eb.Error.ID
		if eb.Error.Format != "" {
			e.Message = eb.Error.Format
		}
	}
	return e
}
