// connfile.go: Jupyter connection files: reading one (its owner and mode
// checked first), validating it (transport, ip, ports, key, signature
// scheme) and the ZeroMQ endpoints it names.

package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxConnectionFile bounds what is read of a connection file.
const maxConnectionFile = 64 << 10

// ConnectionInfo is a parsed, validated connection file.
type ConnectionInfo struct {
	Path            string // the file, absolute ("" when not read from a file)
	Transport       string // "tcp" or "ipc"
	IP              string // as written in the file
	ShellPort       int
	IOPubPort       int
	StdinPort       int
	ControlPort     int
	HBPort          int
	SignatureScheme string
	KernelName      string
	key             []byte // never printed or logged
}

// String names the kernel for messages (never shows the key).
func (c *ConnectionInfo) String() string {
	if c.Path != "" {
		return c.Path
	}
	return fmt.Sprintf("kernel at %s:%d", c.IP, c.ShellPort)
}

// FileOptions relax the checks made on a connection file.
type FileOptions struct {
	// AllowRemoteIP accepts a kernel listening on an address that is not
	// loopback (ZeroMQ traffic is not encrypted: only on a trusted network).
	AllowRemoteIP bool
}

// FileError is a connection file that cannot be used, and why.
type FileError struct {
	Path   string
	Reason string
	Err    error // an underlying error, if any
}

func (e *FileError) Error() string {
	return "connection file " + e.Path + ": " + e.Reason
}

func (e *FileError) Unwrap() error { return e.Err }

// ReadConnectionFile reads and validates a connection file. It refuses a
// file that another user owns or that group or others may read or write
// (it holds the kernel's key), and anything that is not a connection file.
func ReadConnectionFile(path string, opts FileOptions) (*ConnectionInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &FileError{Path: path, Reason: err.Error(), Err: err}
	}
	// The path is checked before it is opened: opening a FIFO blocks until
	// a writer comes, and a device or a huge file is no connection file.
	// Stat follows a symlink (a loop fails with ELOOP at once).
	pre, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &FileError{Path: abs, Reason: "no such file", Err: err}
		}
		return nil, &FileError{Path: abs, Reason: err.Error(), Err: err}
	}
	if !pre.Mode().IsRegular() {
		return nil, &FileError{Path: abs, Reason: "not a regular file (" + pre.Mode().Type().String() + ")"}
	}
	f, err := openNonBlocking(abs) // swapped for a FIFO since: still no block
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &FileError{Path: abs, Reason: "no such file", Err: err}
		}
		return nil, &FileError{Path: abs, Reason: err.Error(), Err: err}
	}
	defer f.Close()
	fi, err := f.Stat() // the opened file's, not the path's: no swap between check and read
	if err != nil {
		return nil, &FileError{Path: abs, Reason: err.Error(), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileError{Path: abs, Reason: "not a regular file"}
	}
	if reason := checkPrivate(fi, abs); reason != "" {
		return nil, &FileError{Path: abs, Reason: reason}
	}
	// The cap counts the bytes read, whatever Stat said of the size.
	data, err := io.ReadAll(io.LimitReader(f, maxConnectionFile+1))
	if err != nil {
		return nil, &FileError{Path: abs, Reason: err.Error(), Err: err}
	}
	if len(data) > maxConnectionFile {
		return nil, &FileError{Path: abs, Reason: fmt.Sprintf("larger than %d KiB: not a connection file", maxConnectionFile>>10)}
	}
	info, err := ParseConnectionInfo(data, opts)
	if err != nil {
		return nil, &FileError{Path: abs, Reason: err.Error(), Err: err}
	}
	info.Path = abs
	return info, nil
}

// rawConnection is the file's JSON; ports may be numbers or strings.
type rawConnection struct {
	Transport       string          `json:"transport"`
	IP              string          `json:"ip"`
	ShellPort       json.RawMessage `json:"shell_port"`
	IOPubPort       json.RawMessage `json:"iopub_port"`
	StdinPort       json.RawMessage `json:"stdin_port"`
	ControlPort     json.RawMessage `json:"control_port"`
	HBPort          json.RawMessage `json:"hb_port"`
	Key             *string         `json:"key"`
	SignatureScheme string          `json:"signature_scheme"`
	KernelName      string          `json:"kernel_name"`
}

// ParseConnectionInfo validates a connection file's content.
func ParseConnectionInfo(data []byte, opts FileOptions) (*ConnectionInfo, error) {
	var raw rawConnection
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("not JSON (at byte %d: %v): not a Jupyter connection file", se.Offset, err)
		}
		return nil, fmt.Errorf("not a Jupyter connection file: %v", err)
	}
	info := &ConnectionInfo{
		Transport:       raw.Transport,
		IP:              raw.IP,
		SignatureScheme: raw.SignatureScheme,
		KernelName:      raw.KernelName,
	}
	if info.Transport == "" {
		info.Transport = "tcp"
	}
	if info.SignatureScheme == "" {
		info.SignatureScheme = "hmac-sha256"
	}
	ports := []struct {
		name string
		raw  json.RawMessage
		dst  *int
	}{
		{"shell_port", raw.ShellPort, &info.ShellPort},
		{"iopub_port", raw.IOPubPort, &info.IOPubPort},
		{"stdin_port", raw.StdinPort, &info.StdinPort},
		{"control_port", raw.ControlPort, &info.ControlPort},
		{"hb_port", raw.HBPort, &info.HBPort},
	}
	for _, p := range ports {
		n, err := parsePort(p.raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %v: not a usable Jupyter connection file", p.name, err)
		}
		*p.dst = n
	}
	if raw.Key == nil || *raw.Key == "" {
		return nil, errors.New(`no "key": the kernel would accept unsigned messages from anyone on this machine; dapscope only talks to kernels with a key`)
	}
	info.key = []byte(*raw.Key)
	if _, err := newSigner(info.SignatureScheme, info.key); err != nil {
		return nil, err
	}
	switch info.Transport {
	case "tcp":
		if err := checkIP(info.IP, opts.AllowRemoteIP); err != nil {
			return nil, err
		}
	case "ipc":
		if info.IP == "" {
			return nil, errors.New(`"ip" (the ipc path prefix) is empty`)
		}
	default:
		return nil, fmt.Errorf("transport %q is not supported (tcp or ipc)", info.Transport)
	}
	return info, nil
}

func parsePort(raw json.RawMessage) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, errors.New("missing")
	}
	s := strings.Trim(string(raw), `"`)
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("%s is not a port number", clipText(string(raw), 20))
	}
	return n, nil
}

// checkIP accepts loopback addresses, "localhost", and the wildcard
// addresses (a kernel listening everywhere is reached on loopback).
func checkIP(ip string, allowRemote bool) error {
	switch ip {
	case "":
		return errors.New(`"ip" is empty`)
	case "localhost", "0.0.0.0", "*", "::":
		return nil
	}
	if a := net.ParseIP(ip); a != nil && a.IsLoopback() {
		return nil
	}
	if allowRemote {
		return nil
	}
	return fmt.Errorf("the kernel listens on %s, which is not a loopback address: its ZeroMQ traffic is not encrypted; reach it through an SSH tunnel or a Jupyter Server, or allow remote addresses explicitly", ip)
}

// dialHost is the host to dial for a tcp kernel.
func (c *ConnectionInfo) dialHost() string {
	switch c.IP {
	case "0.0.0.0", "*", "":
		return "127.0.0.1"
	case "::":
		return "::1"
	}
	return c.IP
}

// address is the host:port (tcp) or socket path (ipc) of one port.
func (c *ConnectionInfo) address(port int) string {
	if c.Transport == "ipc" {
		return c.IP + "-" + strconv.Itoa(port)
	}
	return net.JoinHostPort(c.dialHost(), strconv.Itoa(port))
}
