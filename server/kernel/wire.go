// wire.go: the ZeroMQ wire format of a Jupyter message (routing
// identities, the <IDS|MSG> delimiter, the HMAC signature, the four JSON
// parts, buffers) and the signing and verification of it.

package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
)

var delimiter = []byte("<IDS|MSG>")

// signer computes and checks message signatures for one key and scheme.
type signer struct {
	newHash func() hash.Hash
	key     []byte
}

// signatureSchemes maps the schemes this package supports to their hash.
var signatureSchemes = map[string]func() hash.Hash{
	"hmac-sha256": sha256.New,
	"hmac-sha384": sha512.New384,
	"hmac-sha512": sha512.New,
}

func newSigner(scheme string, key []byte) (*signer, error) {
	h, ok := signatureSchemes[scheme]
	if !ok {
		return nil, fmt.Errorf("unsupported signature scheme %q (supported: hmac-sha256, hmac-sha384, hmac-sha512)", scheme)
	}
	return &signer{newHash: h, key: key}, nil
}

// sign returns the hex signature of the four parts.
func (s *signer) sign(parts [][]byte) []byte {
	mac := hmac.New(s.newHash, s.key)
	for _, p := range parts {
		mac.Write(p)
	}
	sum := mac.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// verify checks a received hex signature over the four parts.
func (s *signer) verify(sig []byte, parts [][]byte) bool {
	want := s.sign(parts)
	return hmac.Equal(bytes.ToLower(sig), want)
}

// encodeFrames is the frames a DEALER sends: delimiter, signature, parts,
// buffers (the kernel's ROUTER adds our identity itself).
func encodeFrames(s *signer, m *Message) ([][]byte, error) {
	parts, err := m.encodeParts()
	if err != nil {
		return nil, err
	}
	frames := make([][]byte, 0, 6+len(m.Buffers))
	frames = append(frames, delimiter, s.sign(parts[:]))
	frames = append(frames, parts[:]...)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// decodeFrames parses received frames. Identities (a PUB topic or routing
// ids) before the delimiter are skipped. A bad signature is ErrSignature
// with the message's header when it could be read, so a waiting request
// can be told.
func decodeFrames(s *signer, channel string, frames [][]byte) (*Message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) {
		return nil, fmt.Errorf("a %s message has no <IDS|MSG> delimiter (%d frames): not a Jupyter kernel?", channel, len(frames))
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("a %s message has %d frames after the delimiter, want at least 5", channel, len(rest))
	}
	for _, f := range rest[1:] {
		if size, ok := frameTooLarge(f); ok {
			// Only the headers (small, before the content) are read, to
			// fail the call it answers; the signature cannot be checked.
			m := &Message{Channel: channel}
			_ = json.Unmarshal(rest[1], &m.Header)
			_ = json.Unmarshal(rest[2], &m.Parent)
			return m, fmt.Errorf("%w: a %s %s message of %s bytes was dropped (the cap is %d MiB)", ErrFrameTooLarge, channel, m.Header.MsgType, size, maxFrame>>20)
		}
	}
	m, err := decodeParts(channel, rest[1:])
	if !s.verify(rest[0], rest[1:5]) {
		return m, &ConnError{Err: ErrSignature, Detail: fmt.Sprintf("a %s message from the kernel was refused", channel)}
	}
	return m, err
}
