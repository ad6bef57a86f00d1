module github.com/dapscope/dapscope

go 1.26.8

require (
	github.com/Microsoft/go-winio v0.6.2
	github.com/chromedp/cdproto v0.159.2
	github.com/coder/websocket v1.8.15
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/google/go-dap v0.12.0
	github.com/google/jsonschema-go v0.4.2
	github.com/google/uuid v1.6.0
	github.com/grafana/sobek v0.0.0-20260429085637-a66d4790012b
	github.com/mark3labs/mcp-go v1.2.1
	github.com/rogpeppe/go-internal v1.14.1
	go.lsp.dev/jsonrpc2 v0.10.0
	go.lsp.dev/protocol v0.12.0
	go.lsp.dev/uri v0.3.0
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.26.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.3.4 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.lsp.dev/pkg v0.0.0-20210717090340-384b27a52fb2 // indirect
	go.uber.org/atomic v1.9.0 // indirect
	go.uber.org/multierr v1.8.0 // indirect
	go.uber.org/zap v1.21.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/text v0.15.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
