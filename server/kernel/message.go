// message.go: the Jupyter message (header, parent header, metadata,
// content, buffers) and the builders for the requests this package sends.

package kernel

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// ProtocolVersion is the messaging protocol version this package speaks.
const ProtocolVersion = "5.3"

// Channel names.
const (
	ChannelShell   = "shell"
	ChannelControl = "control"
	ChannelIOPub   = "iopub"
	ChannelStdin   = "stdin"
)

// Header is a message header (and, for replies and IOPub messages, the
// header of the request that caused it: the parent header).
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
	// SubshellID names the kernel subshell (JEP 91) a shell request is
	// for, and the one a reply or IOPub message's request was (subshell.go).
	SubshellID string `json:"subshell_id,omitempty"`
}

// Time parses Date (ISO 8601); zero when absent or malformed.
func (h Header) Time() time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999"} {
		if t, err := time.Parse(layout, h.Date); err == nil {
			return t
		}
	}
	return time.Time{}
}

// Message is one Jupyter message. Metadata and Content stay raw JSON.
type Message struct {
	Channel  string
	Header   Header
	Parent   Header
	Metadata json.RawMessage
	Content  json.RawMessage
	Buffers  [][]byte
}

// newRequest builds a request of msgType with content, from session.
func newRequest(session, msgType string, content any) (*Message, error) {
	c, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", msgType, err)
	}
	return &Message{
		Header: Header{
			MsgID:    uuid.NewString(),
			Session:  session,
			Username: "dapscope",
			Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
			MsgType:  msgType,
			Version:  ProtocolVersion,
		},
		Metadata: json.RawMessage(`{}`),
		Content:  c,
	}, nil
}

// encodeParts is the message's four JSON parts: header, parent header,
// metadata, content (the parts that are signed).
func (m *Message) encodeParts() ([4][]byte, error) {
	h, err := json.Marshal(m.Header)
	if err != nil {
		return [4][]byte{}, err
	}
	p := []byte("{}")
	if m.Parent.MsgID != "" {
		if p, err = json.Marshal(m.Parent); err != nil {
			return [4][]byte{}, err
		}
	}
	md := []byte(m.Metadata)
	if len(md) == 0 {
		md = []byte("{}")
	}
	c := []byte(m.Content)
	if len(c) == 0 {
		c = []byte("{}")
	}
	return [4][]byte{h, p, md, c}, nil
}

// decodeParts fills a message from its four JSON parts and buffers.
func decodeParts(channel string, parts [][]byte) (*Message, error) {
	if len(parts) < 4 {
		return nil, fmt.Errorf("a %s message has %d parts, want at least 4", channel, len(parts))
	}
	m := &Message{Channel: channel}
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return nil, fmt.Errorf("a %s message's header is not JSON: %w", channel, err)
	}
	if len(parts[1]) > 0 {
		if err := json.Unmarshal(parts[1], &m.Parent); err != nil {
			return nil, fmt.Errorf("a %s message's parent header is not JSON: %w", channel, err)
		}
	}
	m.Metadata = json.RawMessage(parts[2])
	m.Content = json.RawMessage(parts[3])
	if !json.Valid(m.Content) {
		// The headers are returned: the call this answers fails at once.
		return m, fmt.Errorf("%w: a %s %s message's content is not JSON", ErrNotKernelReply, channel, m.Header.MsgType)
	}
	if len(parts) > 4 {
		m.Buffers = parts[4:]
	}
	return m, nil
}

// statusContent is an IOPub status message's content.
type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

// executeInputContent is an IOPub execute_input message's content.
type executeInputContent struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

// statusOf is a status message's execution_state ("" if none).
func statusOf(m *Message) string {
	var st statusContent
	if json.Unmarshal(m.Content, &st) != nil {
		return ""
	}
	return st.ExecutionState
}
