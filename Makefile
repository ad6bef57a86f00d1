# dapscope — build, set up, run, test, benchmark.
# `make run` and `make test` install whatever is missing first (idempotent).

SHELL      := /bin/bash
GO         ?= go
PYTHON     ?= /usr/bin/python3
GOBIN      := $(shell $(GO) env GOPATH)/bin
DLV        := $(GOBIN)/dlv
DLV_VERSION := v1.27.2
# Python packages come from Debian (no PyPI): the debugger, and the data
# libraries the inspector is tested against for real.
PY_DEBS    := python3-debugpy python3-pandas python3-numpy python3-torch python3-xarray python3-dask
# The released targets (make dist; VS Code's linux-x64, linux-arm64,
# darwin-x64, darwin-arm64, win32-x64), as GOOS/GOARCH.
GO_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
export PATH := $(GOBIN):$(PATH)

.PHONY: all build setup setup-python setup-dlv setup-node setup-node-libs setup-wine run test test-go test-cross test-windows test-ext e2e e2e-setup vsix dist bench clean

all: build

build:
	$(GO) build -o dapscope .

## setup: install what is missing (Debian python packages, Delve, npm packages, Wine).
setup: setup-python setup-dlv setup-node setup-node-libs setup-wine

setup-python:
	@if ! $(PYTHON) -c 'import debugpy, pandas, numpy, torch, xarray, dask' 2>/dev/null; then \
		echo "setup: installing $(PY_DEBS) from Debian"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $(PY_DEBS); \
	fi

setup-dlv:
	@if [ ! -x $(DLV) ]; then \
		echo "setup: installing Delve $(DLV_VERSION)"; \
		$(GO) install github.com/go-delve/delve/cmd/dlv@$(DLV_VERSION); \
	fi

setup-node:
	@if [ -f package-lock.json ] && ! [ node_modules/.package-lock.json -nt package-lock.json ]; then npm ci --no-audit --no-fund; fi

# The JavaScript data libraries the inspector is tested against for real
# (apache-arrow, arquero, nodejs-polars with its native binary), pinned by
# their own lock file.
NODE_LIBS := testdata/node/libs
setup-node-libs:
	@if ! [ $(NODE_LIBS)/node_modules/.package-lock.json -nt $(NODE_LIBS)/package-lock.json ]; then \
		cd $(NODE_LIBS) && npm ci --no-audit --no-fund; fi

# Wine runs the Windows build's tests (test-windows); its Windows node comes
# from testdata/windows's own npm lock, installed by that test.
setup-wine:
	@if ! command -v wine >/dev/null && ! [ -x /usr/lib/wine/wine64 ]; then \
		echo "setup: installing wine64 from Debian"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q wine64 wine; \
	fi

## run: the main job on the bundled example.
run: setup build
	./dapscope inspect testdata/python/example.py:34 sales prices config model

## test: every test (Go with -race, every target built and vetted, the
## Windows build under Wine, extension, every VSIX, end to end in a real VS Code).
test: setup test-go test-cross test-windows test-ext dist e2e

test-go:
	@unformatted=$$($$($(GO) env GOROOT)/bin/gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	@long=$$(for f in $$(git ls-files '*.go' 2>/dev/null | grep -v '_test\.go$$'); do n=$$(wc -l < "$$f"); if [ "$$n" -gt 450 ]; then echo "$$f ($$n lines)"; fi; done); \
	if [ -n "$$long" ]; then echo "non-test Go files over 450 lines (split them by feature): $$long"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 25m ./...

## test-cross: build and vet dapscope for every released target (vet also
## compiles the tests; same flags as dist, so its builds reuse the cache).
test-cross:
	@for t in $(GO_TARGETS); do \
		echo "cross: $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -trimpath -o /dev/null . && \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) vet -trimpath ./... || exit 1; \
	done

## test-windows: the Windows build's tests, run under Wine (testdata/windows/run.sh).
test-windows: setup-wine
	testdata/windows/run.sh

test-ext:
	@if [ -f package.json ] && grep -q '"test"' package.json; then npm test; fi

e2e: setup-node
	@if [ -x vscode-extension/e2e/run.sh ]; then vscode-extension/e2e/run.sh; fi

## e2e-setup: install what the end-to-end test needs (chromium, Node 24, code-server; cached).
e2e-setup: setup-node
	vscode-extension/e2e/run.sh --setup-only

## vsix: package the extension with the sidecar for this machine's platform.
vsix: setup-node
	npm run package

## dist: one VSIX per released target, plain archives of each binary, SHA256SUMS (in dist/).
dist: setup-node
	npm run -s dist

## bench: benchmarks, benchstat-friendly (count 5).
bench: setup
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -timeout 60m ./... | tee bench.txt

## bench-inspect: the inspector against real debugpy (floor vs inspect vs per-expression).
.PHONY: bench-inspect
bench-inspect: setup
	$(GO) test -run '^$$' -bench Debugpy -benchmem -count 5 -timeout 30m ./inspect | tee bench-inspect.txt

clean:
	rm -rf dapscope bench.txt dist
