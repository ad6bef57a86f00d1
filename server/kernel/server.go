// server.go: a Jupyter Server's REST API (kernels, sessions mapping
// notebook paths to kernels, kernel specs, restart and interrupt) with its
// token, which goes in an Authorization header and never into a URL, a log
// line or an error text.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Server is a Jupyter Server reached over HTTP(S).
type Server struct {
	base  *url.URL // scheme, host and base path; no query, no credentials
	token string
	hc    *http.Client
	// plainTCP: the websocket without quick ACKs (benchmarks' baseline).
	plainTCP bool
}

// ServerOptions configure NewServer.
type ServerOptions struct {
	// Token authenticates every request. A "token" query parameter in the
	// URL is taken (and removed from it) when Token is empty.
	Token string
	// AllowRemote accepts a host that is not loopback; it must then use
	// https unless AllowInsecureHTTP.
	AllowRemote       bool
	AllowInsecureHTTP bool
	// AllowHosts are the hosts besides loopback that may be reached
	// (the sidecar's --attach-hosts), under the same https rule.
	AllowHosts []string
	// Timeout bounds each REST request (default 30 s; contexts too).
	Timeout time.Duration
}

// NewServer checks a Jupyter Server URL (http or https; loopback unless
// allowed) and returns its client.
func NewServer(rawURL string, opts ServerOptions) (*Server, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("Jupyter Server URL %q: want http://HOST:PORT/[base/]", redactURL(rawURL))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("Jupyter Server URL %s: scheme must be http or https", redactURL(rawURL))
	}
	token := opts.Token
	if q := u.Query(); q.Get("token") != "" && token == "" {
		token = q.Get("token")
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	u.Path = strings.TrimSuffix(u.Path, "/") + "/"
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/lab/"), "/tree/")
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if !isLoopbackHost(u.Hostname()) {
		if !opts.AllowRemote && !slices.Contains(opts.AllowHosts, u.Hostname()) {
			return nil, fmt.Errorf("Jupyter Server %s is not on this machine (loopback): allow its host explicitly (--attach-hosts %s)", u.Redacted(), u.Hostname())
		}
		if u.Scheme != "https" && !opts.AllowInsecureHTTP {
			return nil, fmt.Errorf("Jupyter Server %s: a remote server must use https (the token would travel in clear)", u.Redacted())
		}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	hc := &http.Client{
		Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is a login page: never follow it with the token
		},
	}
	return &Server{base: u, token: token, hc: hc}, nil
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// redactURL drops a URL's query and credentials for messages.
func redactURL(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = nil
		return u.String()
	}
	return clipText(raw, 200)
}

// ReadToken returns the token from file, or from $JUPYTER_TOKEN when file
// is empty. The file must be private to the user, like a connection file.
func ReadToken(file string) (string, error) {
	if file == "" {
		if t := os.Getenv("JUPYTER_TOKEN"); t != "" {
			return t, nil
		}
		return "", errors.New("no Jupyter Server token: give a token file or set JUPYTER_TOKEN")
	}
	f, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	if reason := checkPrivate(fi, file); reason != "" {
		return "", fmt.Errorf("token file %s: %s", file, strings.ReplaceAll(reason, "kernel's key", "token"))
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	return t, nil
}

// URL is the server's base URL (no token).
func (s *Server) URL() string { return s.base.String() }

var kernelIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)

func checkKernelID(id string) error {
	if !kernelIDPattern.MatchString(id) {
		return fmt.Errorf("kernel id %q: want letters, digits, '-', '_' or '.'", clipText(id, 60))
	}
	return nil
}

// do sends one authenticated request and decodes a JSON answer into out.
func (s *Server) do(ctx context.Context, method, path string, out any) error {
	_, err := s.doDated(ctx, method, path, out)
	return err
}

// doDated is do, also returning the answer's Date header (zero if none).
func (s *Server) doDated(ctx context.Context, method, path string, out any) (time.Time, error) {
	var date time.Time
	err := s.request(ctx, method, path, out, &date)
	return date, err
}

func (s *Server) request(ctx context.Context, method, path string, out any, date *time.Time) error {
	u := s.base.JoinPath(path)
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return err
	}
	if s.token != "" {
		req.Header.Set("Authorization", "token "+s.token)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
	}
	defer resp.Body.Close()
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		*date = d
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden ||
		(resp.StatusCode >= 300 && resp.StatusCode < 400):
		msg := "the server refused the token (give the right one in a token file or JUPYTER_TOKEN)"
		if s.token == "" {
			msg = "the server needs a token: --token-file or JUPYTER_TOKEN"
		}
		return &ServerError{Status: resp.StatusCode, Method: method, URL: u.Redacted(), Message: msg}
	case resp.StatusCode >= 400:
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(body, &e)
		return &ServerError{Status: resp.StatusCode, Method: method, URL: u.Redacted(), Message: clipText(s.scrub(e.Message), 200)}
	}
	if out == nil || len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, u.Redacted(), err)
	}
	return nil
}

// scrub removes the token from a text the server sent back.
func (s *Server) scrub(text string) string {
	if s.token == "" {
		return text
	}
	return strings.ReplaceAll(text, s.token, "[token]")
}

// ServerError is an HTTP error from the server.
type ServerError struct {
	Status  int
	Method  string
	URL     string
	Message string
}

func (e *ServerError) Error() string {
	s := fmt.Sprintf("%s %s: %d %s", e.Method, e.URL, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// ServerKernel is a kernel as /api/kernels lists it.
type ServerKernel struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	LastActivity   time.Time `json:"last_activity"`
	ExecutionState string    `json:"execution_state"`
	Connections    int       `json:"connections"`
	// Read: when this client received the model, and the server's Date
	// header on it (Kernel only; zero otherwise).
	Read       time.Time `json:"-"`
	ServerDate time.Time `json:"-"`
}

// ServerSession maps a notebook (or console) path to its kernel.
type ServerSession struct {
	ID     string       `json:"id"`
	Path   string       `json:"path"`
	Name   string       `json:"name"`
	Type   string       `json:"type"`
	Kernel ServerKernel `json:"kernel"`
}

// KernelSpec is the part of a kernel spec dapscope uses.
type KernelSpec struct {
	Name        string
	Language    string
	DisplayName string
}

// Kernels lists the server's running kernels.
func (s *Server) Kernels(ctx context.Context) ([]ServerKernel, error) {
	var ks []ServerKernel
	return ks, s.do(ctx, http.MethodGet, "api/kernels", &ks)
}

// Kernel returns one kernel; a *ServerError with Status 404 when the
// server has no such kernel.
func (s *Server) Kernel(ctx context.Context, id string) (*ServerKernel, error) {
	if err := checkKernelID(id); err != nil {
		return nil, err
	}
	var k ServerKernel
	date, err := s.doDated(ctx, http.MethodGet, "api/kernels/"+id, &k)
	k.Read, k.ServerDate = time.Now(), date
	return &k, err
}

// Sessions lists the server's sessions (notebook path → kernel).
func (s *Server) Sessions(ctx context.Context) ([]ServerSession, error) {
	var ss []ServerSession
	return ss, s.do(ctx, http.MethodGet, "api/sessions", &ss)
}

// KernelSpecs maps kernel spec names to their language.
func (s *Server) KernelSpecs(ctx context.Context) (map[string]KernelSpec, error) {
	var raw struct {
		KernelSpecs map[string]struct {
			Spec struct {
				Language    string `json:"language"`
				DisplayName string `json:"display_name"`
			} `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := s.do(ctx, http.MethodGet, "api/kernelspecs", &raw); err != nil {
		return nil, err
	}
	out := map[string]KernelSpec{}
	for name, ks := range raw.KernelSpecs {
		out[name] = KernelSpec{Name: name, Language: ks.Spec.Language, DisplayName: ks.Spec.DisplayName}
	}
	return out, nil
}

// RestartKernel asks the server to restart a kernel.
func (s *Server) RestartKernel(ctx context.Context, id string) error {
	if err := checkKernelID(id); err != nil {
		return err
	}
	return s.do(ctx, http.MethodPost, "api/kernels/"+id+"/restart", nil)
}

// InterruptKernel asks the server to interrupt a kernel.
func (s *Server) InterruptKernel(ctx context.Context, id string) error {
	if err := checkKernelID(id); err != nil {
		return err
	}
	return s.do(ctx, http.MethodPost, "api/kernels/"+id+"/interrupt", nil)
}
