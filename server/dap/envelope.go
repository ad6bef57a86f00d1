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
	// Variables: an adapter inside the sidecar (a kernel session's) names
	// its errcode here (CodeVar, StateVar), so the session returns the
	// same typed error instead of a generic ADAPTER_ERROR. The format
	// never references them.
	Variables map[string]string `json:"variables,omitempty"`
}

// The Variables of an error response written with CodedErrorResponse.
const (
	CodeVar  = "dapscope.code"
	StateVar = "dapscope.state"
	FieldVar = "dapscope.field"
	HintVar  = "dapscope.hint"
)

// ErrorResponse builds an error response to the request env; its id is the
// code's DAP id (errcode's one table).
func ErrorResponse(seq int, req Envelope, code errcode.Code, msg string) []byte {
	body, _ := json.Marshal(ErrorBody{Error: &ErrorMessage{ID: code.DAPID(), Format: msg}})
	b, _ := json.Marshal(Response{Seq: seq, Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: false, Message: msg, Body: body})
	return b
}

// CodedErrorResponse builds an error response that carries e's code (and
// state, field, hint) for the sidecar's own sessions (ResponseError.Coded).
func CodedErrorResponse(seq int, req Envelope, e *errcode.Error) []byte {
	vars := map[string]string{CodeVar: string(e.Code)}
	for k, v := range map[string]string{StateVar: e.State, FieldVar: e.Field, HintVar: e.Hint} {
		if v != "" {
			vars[k] = v
		}
	}
	body, _ := json.Marshal(ErrorBody{Error: &ErrorMessage{ID: e.Code.DAPID(), Format: e.Message, Variables: vars}})
	b, _ := json.Marshal(Response{Seq: seq, Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: false, Message: e.Message, Body: body})
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
	// Variables of the error's Message (CodedErrorResponse's code).
	Variables map[string]string
}

// Coded is the typed error an in-sidecar adapter wrote with
// CodedErrorResponse, nil for any other error response.
func (e *ResponseError) Coded() *errcode.Error {
	code := e.Variables[CodeVar]
	if code == "" {
		return nil
	}
	return &errcode.Error{Code: errcode.Code(code), Message: e.Message, State: e.Variables[StateVar],
		Field: e.Variables[FieldVar], Hint: e.Variables[HintVar]}
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
		e.ID, e.Variables = eb.Error.ID, eb.Error.Variables
		if eb.Error.Format != "" {
			e.Message = eb.Error.Format
		}
	}
	return e
}
