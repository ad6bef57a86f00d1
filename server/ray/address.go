// address.go: which dashboard a listing asks (a URL as given, a GCS address
// resolved through the cluster's own Python, or the default), and the
// cluster's token, found where Ray keeps it. The token is only ever sent
// in a request header, never put in an argument or a log.

package ray

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/internal/safefile"
)

//go:embed resolve.py
var resolvePy string

// DefaultDashboard is the dashboard a local `ray start --head` or
// `ray.init()` serves.
const DefaultDashboard = "http://127.0.0.1:8265"

// Dashboard is the dashboard's URL for o.Address, checked against the
// host rules.
func Dashboard(ctx context.Context, o Options) (*url.URL, error) {
	addr := strings.TrimSpace(o.Address)
	if addr == "" {
		addr = strings.TrimSpace(os.Getenv("RAY_DASHBOARD_ADDRESS"))
	}
	if addr == "" {
		addr = DefaultDashboard
	}
	if !strings.Contains(addr, "://") {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, errcode.Invalid("address", "want a dashboard URL (http://HOST:PORT) or a GCS address (HOST:PORT), got %q", clip.Bytes.Head(addr, 200))
		}
		if !HostAllowed(host, o.AllowHosts) {
			return nil, notAllowed(host)
		}
		dash, err := resolveGCS(ctx, o.Python, addr)
		if err != nil {
			return nil, err
		}
		addr = dash
		if !strings.Contains(addr, "://") {
			addr = "http://" + addr
		}
	}
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errcode.Invalid("address", "want a dashboard URL (http://HOST:PORT) or a GCS address (HOST:PORT), got %q", clip.Bytes.Head(addr, 200))
	}
	if u.User != nil {
		return nil, errcode.Invalid("address", "credentials do not go in the URL: give the token in a file (token_file)")
	}
	if !HostAllowed(u.Hostname(), o.AllowHosts) {
		return nil, notAllowed(u.Hostname())
	}
	u.RawQuery, u.Fragment = "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u, nil
}

func notAllowed(host string) error {
	return errcode.Invalid("address", "%q is not a loopback address; other hosts must be allowed explicitly (dapscope --attach-hosts %s)", clip.Bytes.Head(host, 200), clip.Bytes.Head(host, 200))
}

// resolveGCS asks the GCS at addr for the dashboard's address, with the
// cluster's ray package (resolve.py; bounded at 30 s).
func resolveGCS(ctx context.Context, python, addr string) (string, error) {
	if python == "" {
		python = "python3"
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", resolvePy, addr)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	var r struct {
		Dashboard string `json:"dashboard"`
		Error     string `json:"error"`
	}
	if jerr := json.Unmarshal(bytes.TrimSpace(lastLine(out.Bytes())), &r); jerr != nil {
		why := strings.TrimSpace(stderr.String())
		if err != nil && why == "" {
			why = err.Error()
		}
		return "", &errcode.Error{Code: errcode.LaunchFailed, Field: "address",
			Message: fmt.Sprintf("reading the dashboard's address from the GCS at %s with %s: %s", addr, python, tail(why, 400)),
			Hint:    "give the dashboard's URL instead (http://HOST:8265), or the Python whose ray runs the cluster (--python)"}
	}
	switch {
	case r.Error != "":
		return "", &errcode.Error{Code: errcode.NotFound, Field: "address", Message: fmt.Sprintf("the GCS at %s: %s", addr, clip.Bytes.Head(r.Error, 400))}
	case r.Dashboard == "":
		return "", &errcode.Error{Code: errcode.NotFound, Field: "address", Message: fmt.Sprintf("the cluster at %s runs no dashboard: start it with one (ray[default]) to list its paused tasks", addr)}
	}
	return r.Dashboard, nil
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// readToken is the cluster's token: from file, else $RAY_AUTH_TOKEN, else
// the file $RAY_AUTH_TOKEN_PATH, else ~/.ray/auth_token (Ray's own order);
// "" when there is none (a cluster without token authentication).
func readToken(file string) (string, error) {
	if file == "" {
		if t := strings.TrimSpace(os.Getenv("RAY_AUTH_TOKEN")); t != "" {
			return t, nil
		}
		file = os.Getenv("RAY_AUTH_TOKEN_PATH")
		if file == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", nil
			}
			file = filepath.Join(home, ".ray", "auth_token")
			if _, err := os.Stat(file); err != nil {
				return "", nil // no token: the cluster may not want one
			}
		}
	}
	b, err := safefile.Read(file, 64<<10)
	if err != nil {
		return "", errcode.Invalid("token_file", "Ray's token: %v", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// tail keeps the last n bytes of s (a traceback's last lines say why).
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + strings.ToValidUTF8(s[len(s)-n:], "")
}
