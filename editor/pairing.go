// pairing.go: which sidecar session each VS Code debug session of type
// dapscope is. Every dapscope/startProxy mints a pairing token; the token
// travels with that proxy's private listener to the one connection it
// accepts, and the session made for that connection is bound to it before
// any DAP byte is proxied (session.ProxySpec.Pair). So a startProxy that
// never connects (an aborted launch) or proxies that connect in another
// order than they were asked for (a compound launch) cannot swap sessions,
// as pairing by arrival order did (issue #28.5). The token is no credential:
// the socket's permissions decide who may connect.

package editor

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/dapscope/dapscope/errcode"
)

// proxyPair is one startProxy: its VS Code session, and the sidecar
// session its connection became ("" until it connects).
type proxyPair struct {
	vscodeID  string
	sessionID string
	seq       uint64 // startProxy order: a restarted VS Code session asks again under the same id
}

// pairings are the proxies of this channel by token, and the VS Code
// session id of each paired sidecar session. Guarded by Server.mu.
type pairings struct {
	byToken   map[string]*proxyPair
	bySession map[string]string // sidecar session id → VS Code session id
	seq       uint64
}

func newPairings() pairings {
	return pairings{byToken: map[string]*proxyPair{}, bySession: map[string]string{}}
}

// newPairingToken is 16 random bytes in hex: unique to one startProxy.
func newPairingToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// expectProxy records a startProxy of VS Code session vscodeID and returns
// the token its connection will be paired by.
func (s *Server) expectProxy(vscodeID string) string {
	token := newPairingToken()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pairs.seq++
	s.pairs.byToken[token] = &proxyPair{vscodeID: vscodeID, seq: s.pairs.seq}
	return token
}

// pairProxy binds the session made for a proxy's connection to the token of
// its startProxy; called before any DAP byte of that connection is proxied.
// A token this channel did not mint, or one already paired, is refused.
func (s *Server) pairProxy(token, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pairs.byToken[token]
	switch {
	case p == nil:
		return errors.New("no dapscope/startProxy of this editor channel is waiting for it")
	case p.sessionID != "":
		return fmt.Errorf("its startProxy is already paired with session %s", p.sessionID)
	}
	p.sessionID = sessionID
	s.pairs.bySession[sessionID] = p.vscodeID
	s.log.Info("proxy paired", "vscodeSession", p.vscodeID, "session", sessionID)
	return nil
}

// unpairedProxy forgets a startProxy whose connection never became a
// session (none came, or its adapter did not start).
func (s *Server) unpairedProxy(token string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pairs.byToken[token]; p != nil && p.sessionID == "" {
		delete(s.pairs.byToken, token)
		s.log.Info("proxy never paired", "vscodeSession", p.vscodeID, "err", err)
	}
}

// forgetPaired drops the pairing of a session the manager forgot.
func (s *Server) forgetPaired(sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pairs.bySession[sessionID]; !ok {
		return
	}
	delete(s.pairs.bySession, sessionID)
	for t, p := range s.pairs.byToken {
		if p.sessionID == sessionID {
			delete(s.pairs.byToken, t)
		}
	}
}

// sidecarIDOf is the session of VS Code session vscodeID's latest
// startProxy: "" when it asked for none (not a proxy of this channel), an
// error while that proxy has not connected.
func (s *Server) sidecarIDOf(vscodeID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var latest *proxyPair
	for _, p := range s.pairs.byToken {
		if p.vscodeID == vscodeID && (latest == nil || p.seq > latest.seq) {
			latest = p
		}
	}
	switch {
	case latest == nil:
		return "", nil
	case latest.sessionID == "":
		return "", &errcode.Error{Code: errcode.NotFound, Field: "vscodeSessionId",
			Message: "the debug session has not connected to dapscope yet (its adapter is starting)"}
	}
	return latest.sessionID, nil
}

// vscodeIDOf is the VS Code session a sidecar session is: bridged, or
// paired with a startProxy; "" for neither.
func (s *Server) vscodeIDOf(sidecarID string) string {
	if v := s.bridge.VSCodeID(sidecarID); v != "" {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pairs.bySession[sidecarID]
}
