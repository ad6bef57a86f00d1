// ws.go: the websocket transport to a kernel behind a Jupyter Server
// (/api/kernels/{id}/channels, coder/websocket): the token in a header,
// the v1 binary subprotocol or the legacy JSON one, one reader, one writer
// at a time, websocket pings for liveness, and a reconnect that first asks
// the server whether the kernel still exists.

package kernel

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// wsReadLimit bounds one websocket message (large inspection answers).
const wsReadLimit = 256 << 20

type wsTransport struct {
	srv      *Server
	kernelID string
	session  string
	deliver  func(*Message, error)
	lost     func(error)
	ctx      context.Context
	cancel   context.CancelFunc
	// busyAt: the start bound of a cell the server's kernel model said was
	// running, read before the websocket opened (serverBusySince).
	busyAt time.Time

	mu      sync.Mutex
	conn    *websocket.Conn
	v1      bool
	readers sync.WaitGroup
	writeMu sync.Mutex
}

// Dial attaches to a kernel of the server over its channels websocket, as
// the package-level Dial does over ZeroMQ.
func (s *Server) Dial(ctx context.Context, kernelID string, opts Options) (*Client, error) {
	if err := checkKernelID(kernelID); err != nil {
		return nil, err
	}
	c := newClient(s.base.Redacted()+" kernel "+kernelID, opts)
	c.probeRestarts = true
	tctx, cancel := context.WithCancel(context.Background())
	w := &wsTransport{srv: s, kernelID: kernelID, session: c.session, deliver: c.deliver, lost: c.lost, ctx: tctx, cancel: cancel}
	if err := w.connect(ctx); err != nil {
		cancel()
		c.cancel()
		return nil, err
	}
	c.serverBusy = w.busyAt
	return c.start(ctx, w)
}

// wsHTTPClient is the websocket handshake's client: quick ACKs (see
// quickack.go) unless plainTCP (a benchmark's baseline).
func (s *Server) wsHTTPClient() *http.Client {
	hc := &http.Client{CheckRedirect: s.hc.CheckRedirect}
	if !s.plainTCP {
		hc.Transport = quickAckTransport()
	}
	return hc
}

func (w *wsTransport) channelsURL() string {
	u := w.srv.base.JoinPath("api/kernels", w.kernelID, "channels")
	if u.Scheme == "https" {
		u.Scheme = "wss"
	} else {
		u.Scheme = "ws"
	}
	q := u.Query()
	q.Set("session_id", w.session)
	u.RawQuery = q.Encode()
	return u.String()
}

// connect checks the kernel over REST (a clear 404 or token error), then
// opens the websocket and starts its reader.
func (w *wsTransport) connect(ctx context.Context) error {
	k, err := w.kernelExists(ctx)
	if err != nil {
		var ce *ConnError
		if errors.As(err, &ce) {
			ce.Kernel = w.srv.base.Redacted() + " kernel " + w.kernelID
		}
		return err
	}
	// Before the websocket opens: the server's nudge (kernel_info on shell
	// and control) moves last_activity while the kernel is busy.
	w.busyAt = serverBusySince(k)
	h := http.Header{}
	if w.srv.token != "" {
		h.Set("Authorization", "token "+w.srv.token)
	}
	conn, resp, err := websocket.Dial(ctx, w.channelsURL(), &websocket.DialOptions{
		HTTPClient:   w.srv.wsHTTPClient(),
		HTTPHeader:   h,
		Subprotocols: []string{wsProtocolV1},
	})
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized) {
			return &ServerError{Status: resp.StatusCode, Method: "GET", URL: w.srv.base.Redacted() + "api/kernels/" + w.kernelID + "/channels",
				Message: "the server refused the token"}
		}
		return fmt.Errorf("opening the kernel channels websocket of %s: %s", w.kernelID, w.srv.scrub(err.Error()))
	}
	conn.SetReadLimit(wsReadLimit)
	w.mu.Lock()
	w.conn, w.v1 = conn, conn.Subprotocol() == wsProtocolV1
	w.mu.Unlock()
	w.readers.Add(1)
	go w.read(conn, w.v1)
	return nil
}

func (w *wsTransport) read(conn *websocket.Conn, v1 bool) {
	defer w.readers.Done()
	for {
		typ, data, err := conn.Read(w.ctx)
		if err != nil {
			w.mu.Lock()
			current := w.conn == conn
			w.mu.Unlock()
			if current && w.ctx.Err() == nil {
				w.lost(fmt.Errorf("websocket: %s", w.srv.scrub(err.Error())))
			}
			return
		}
		var m *Message
		if v1 {
			m, err = decodeV1(data)
		} else {
			m, err = decodeLegacy(data, typ == websocket.MessageBinary)
		}
		if err != nil {
			w.deliver(nil, fmt.Errorf("from the Jupyter Server: %w", err))
			continue
		}
		w.deliver(m, nil)
	}
}

func (w *wsTransport) send(ctx context.Context, channel string, m *Message) error {
	w.mu.Lock()
	conn, v1 := w.conn, w.v1
	w.mu.Unlock()
	if conn == nil {
		return &ConnError{Err: ErrDead, Detail: "not connected to the Jupyter Server"}
	}
	var (
		data []byte
		err  error
		typ  = websocket.MessageText
	)
	if v1 {
		typ = websocket.MessageBinary
		data, err = encodeV1(channel, m)
	} else {
		data, err = encodeLegacy(channel, m)
	}
	if err != nil {
		return err
	}
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	return conn.Write(ctx, typ, data)
}

// ping checks the websocket (the server answers) and asks the server
// whether it still has the kernel: a kernel shut down through the server
// leaves the websocket open and silent. A restart shows in the statuses
// the server relays (restarting, dead) and in the kernel's new session.
func (w *wsTransport) ping(ctx context.Context) error {
	w.mu.Lock()
	conn := w.conn
	w.mu.Unlock()
	if conn == nil {
		return &ConnError{Err: ErrDead, Detail: "not connected to the Jupyter Server"}
	}
	if err := conn.Ping(ctx); err != nil {
		if ctx.Err() != nil {
			return &ConnError{Err: ErrNotAnswering, Detail: "the Jupyter Server does not answer websocket pings"}
		}
		return &ConnError{Err: ErrDead, Detail: "websocket: " + w.srv.scrub(err.Error())}
	}
	_, err := w.kernelExists(ctx)
	return err
}

func (w *wsTransport) kernelExists(ctx context.Context) (*ServerKernel, error) {
	k, err := w.srv.Kernel(ctx, w.kernelID)
	var se *ServerError
	switch {
	case errors.As(err, &se) && se.Status == http.StatusNotFound:
		return nil, &ConnError{Err: ErrGone, Detail: "the server has no such kernel (shut down, or a wrong id)"}
	case err != nil && ctx.Err() != nil:
		return nil, &ConnError{Err: ErrNotAnswering, Detail: "the Jupyter Server does not answer"}
	case err != nil:
		return nil, err
	case k.ExecutionState == "dead":
		return nil, &ConnError{Err: ErrDead, Detail: "the server reports the kernel dead"}
	}
	return k, nil
}

func (w *wsTransport) dropConn() {
	w.mu.Lock()
	conn := w.conn
	w.conn = nil
	w.mu.Unlock()
	if conn != nil {
		_ = conn.CloseNow()
	}
	w.readers.Wait()
}

func (w *wsTransport) reconnect(ctx context.Context) error {
	w.dropConn()
	return w.connect(ctx)
}

func (w *wsTransport) close() error {
	w.mu.Lock()
	conn := w.conn
	w.conn = nil // the reader now ends quietly
	w.mu.Unlock()
	if conn != nil {
		_ = conn.Close(websocket.StatusNormalClosure, "")
	}
	w.cancel()
	w.readers.Wait()
	return nil
}
