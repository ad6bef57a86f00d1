// Tests of adapterAddress: which configurations dial a debugpy adapter that
// already runs instead of starting one.

package editor

import "testing"

func TestAdapterAddress(t *testing.T) {
	connect := func(host any, port any) map[string]any {
		c := map[string]any{"port": port}
		if host != nil {
			c["host"] = host
		}
		return c
	}
	for _, tc := range []struct {
		name string
		cfg  map[string]any
		kind string
		want string
	}{
		{"subprocess child", map[string]any{"request": "attach", "subProcessId": 42.0, "connect": connect("127.0.0.1", 5679.0)}, "debugpy", "127.0.0.1:5679"},
		{"listen() debuggee", map[string]any{"request": "attach", "connect": connect(nil, 5678.0)}, "debugpy", "127.0.0.1:5678"},
		{"ipv6 loopback", map[string]any{"request": "attach", "connect": connect("::1", 5678.0)}, "debugpy", "[::1]:5678"},
		{"launch", map[string]any{"request": "launch", "connect": connect(nil, 5678.0)}, "debugpy", ""},
		{"attach by pid", map[string]any{"request": "attach", "processId": 1234.0}, "debugpy", ""},
		{"delve", map[string]any{"request": "attach", "connect": connect(nil, 5678.0)}, "dlv", ""},
		{"port out of range", map[string]any{"request": "attach", "connect": connect(nil, 70000.0)}, "debugpy", ""},
		{"fractional port", map[string]any{"request": "attach", "connect": connect(nil, 56.5)}, "debugpy", ""},
		{"port as string", map[string]any{"request": "attach", "connect": connect(nil, "5678")}, "debugpy", ""},
	} {
		if got := adapterAddress(tc.cfg, tc.kind); got != tc.want {
			t.Errorf("%s: adapterAddress = %q, want %q", tc.name, got, tc.want)
		}
	}
}
