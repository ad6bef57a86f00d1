// wscodec.go: the two message encodings of a Jupyter Server's kernel
// channels websocket: "v1.kernel.websocket.jupyter.org" (binary: offsets,
// channel, the kernel's own JSON parts, buffers) and the legacy one (a
// JSON text with a "channel" key; binary when it has buffers).

package kernel

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// wsProtocolV1 is the binary subprotocol dapscope asks for first.
const wsProtocolV1 = "v1.kernel.websocket.jupyter.org"

// encodeV1 is a v1 binary frame: the number of offsets, the offsets
// (little-endian uint64), the channel, the four JSON parts, buffers.
func encodeV1(channel string, m *Message) ([]byte, error) {
	parts, err := m.encodeParts()
	if err != nil {
		return nil, err
	}
	list := append(parts[:], m.Buffers...)
	n := 1 + 1 + len(list) + 1 // count, channel start, each part, the end
	offsets := make([]uint64, 0, n-1)
	offsets = append(offsets, uint64(8*n))
	offsets = append(offsets, offsets[0]+uint64(len(channel)))
	for _, p := range list {
		offsets = append(offsets, offsets[len(offsets)-1]+uint64(len(p)))
	}
	out := make([]byte, 0, offsets[len(offsets)-1])
	out = binary.LittleEndian.AppendUint64(out, uint64(len(offsets)))
	for _, o := range offsets {
		out = binary.LittleEndian.AppendUint64(out, o)
	}
	out = append(out, channel...)
	for _, p := range list {
		out = append(out, p...)
	}
	return out, nil
}

// decodeV1 parses a v1 binary frame.
func decodeV1(b []byte) (*Message, error) {
	if len(b) < 8 {
		return nil, errors.New("websocket message shorter than its header")
	}
	n := binary.LittleEndian.Uint64(b)
	if n < 2 || n > 1<<16 || uint64(len(b)) < 8*(n+1) {
		return nil, fmt.Errorf("websocket message with %d offsets does not fit its %d bytes", n, len(b))
	}
	offsets := make([]uint64, n)
	for i := range offsets {
		offsets[i] = binary.LittleEndian.Uint64(b[8*(i+1):])
		if offsets[i] > uint64(len(b)) || (i > 0 && offsets[i] < offsets[i-1]) {
			return nil, errors.New("websocket message with bad offsets")
		}
	}
	channel := string(b[offsets[0]:offsets[1]])
	var parts [][]byte
	for i := 1; i+1 < len(offsets); i++ {
		parts = append(parts, b[offsets[i]:offsets[i+1]])
	}
	return decodeParts(channel, parts)
}

// legacyMessage is the legacy JSON encoding.
type legacyMessage struct {
	Header   Header          `json:"header"`
	Parent   json.RawMessage `json:"parent_header"`
	Metadata json.RawMessage `json:"metadata"`
	Content  json.RawMessage `json:"content"`
	Channel  string          `json:"channel"`
	Buffers  []any           `json:"buffers"`
}

func encodeLegacy(channel string, m *Message) ([]byte, error) {
	parts, err := m.encodeParts()
	if err != nil {
		return nil, err
	}
	return json.Marshal(legacyMessage{Header: m.Header, Parent: parts[1], Metadata: parts[2], Content: parts[3], Channel: channel, Buffers: []any{}})
}

// decodeLegacy parses a legacy text message, or a binary one (a count and
// big-endian uint32 offsets, the JSON, then buffers).
func decodeLegacy(b []byte, binaryMsg bool) (*Message, error) {
	var buffers [][]byte
	if binaryMsg {
		if len(b) < 4 {
			return nil, errors.New("binary websocket message shorter than its header")
		}
		n := binary.BigEndian.Uint32(b)
		if n < 1 || n > 1<<16 || len(b) < int(4*(n+1)) {
			return nil, errors.New("binary websocket message with a bad header")
		}
		offsets := make([]int, n+1)
		for i := 0; i < int(n); i++ {
			offsets[i] = int(binary.BigEndian.Uint32(b[4*(i+1):]))
		}
		offsets[n] = len(b)
		for i := 0; i < int(n); i++ {
			if offsets[i] > offsets[i+1] || offsets[i] > len(b) {
				return nil, errors.New("binary websocket message with bad offsets")
			}
		}
		for i := 1; i < int(n); i++ {
			buffers = append(buffers, b[offsets[i]:offsets[i+1]])
		}
		b = b[offsets[0]:offsets[1]]
	}
	var lm legacyMessage
	if err := json.Unmarshal(b, &lm); err != nil {
		return nil, fmt.Errorf("websocket message is not JSON: %w", err)
	}
	m := &Message{Channel: lm.Channel, Header: lm.Header, Metadata: lm.Metadata, Content: lm.Content, Buffers: buffers}
	if len(lm.Parent) > 0 && string(lm.Parent) != "null" {
		if err := json.Unmarshal(lm.Parent, &m.Parent); err != nil {
			return nil, fmt.Errorf("websocket message's parent header: %w", err)
		}
	}
	if len(m.Content) == 0 {
		m.Content = json.RawMessage(`{}`)
	}
	return m, nil
}
