# dapscope — build, set up, run, test, benchmark.
# `make run` and `make test` install whatever is missing first (idempotent).

SHELL      := /bin/bash
GO         ?= go
PYTHON     ?= /usr/bin/python3
GOBIN      := $(shell $(GO) env GOPATH)/bin
DLV        := $(GOBIN)/dlv
DLV_VERSION := v1.27.2
# Python packages come from Debian (no PyPI): the debugger, the data
# libraries the inspector is tested against for real, and Jupyter (a kernel,
# its client library, a Jupyter Server) for the kernel transport's tests.
PY_DEBS    := python3-debugpy python3-pandas python3-numpy python3-torch python3-xarray python3-dask \
              python3-ipykernel python3-jupyter-client jupyter-server
# The released targets (make dist; VS Code's linux-x64, linux-arm64,
# darwin-x64, darwin-arm64, win32-x64), as GOOS/GOARCH.
GO_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
export PATH := $(GOBIN):$(PATH)

.PHONY: all build setup setup-python setup-dlv setup-node setup-node-libs setup-wine run test test-go test-probe test-probe-bin test-native check-size test-cross test-windows test-ext e2e e2e-setup vsix dist bench clean

all: build

build:
	$(GO) build -o dapscope .

## setup: install what is missing (Debian python packages, Delve, npm packages, Wine).
setup: setup-python setup-dlv setup-node setup-node-libs setup-wine

setup-python:
	@if ! $(PYTHON) -c 'import debugpy, pandas, numpy, torch, xarray, dask, ipykernel, jupyter_client, jupyter_server' 2>/dev/null; then \
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

## test: every test (the probe's tables, Go with -race, every target built
## and vetted, the Windows build under Wine, extension, every VSIX, end to
## end in a real VS Code).
test: setup test-probe test-go test-cross test-windows test-ext dist e2e

## test-probe: the Python probe's case tables run directly in a Python,
## no debugger: `make test-probe PYTHON=/opt/torch/.venv/bin/python3`.
## Golden bytes hold in Debian's python3 only; in another interpreter each
## case is held to its golden's version-independent facts (facts_test.go).
## The tables need numpy and pandas; torch for the tensor and model cases
## (xarray and dask only for theirs); node for the JavaScript side of the
## parity table (without it, Python's side alone).
PROBE_TABLES := TestProbeGoldens|TestProbeLibraryGoldens|TestProbesParity|TestTensorStatsMatchNumpy|TestBrowseFilterKindsAgainstPandas|TestBrowseSortKindsAgainstPandas|TestPageCellsAsJSONText|TestBrowseCacheBounded|TestPrecisionAndCompactJSON|TestBrowsePrecision|TestProbeWithoutPandas|TestProbeIPythonNamespace
test-probe:
	DAPSCOPE_PYTHON=$(PYTHON) $(GO) test -count=1 -run '^($(PROBE_TABLES))$$' ./inspect

## test-probe-bin: the same tables as a prebuilt test binary with what it
## reads, for a machine without Go (the GPU machine): build/probe-bin/run.sh
## PYTHON [go test flags] runs them there, e.g.
## build/probe-bin/run.sh /opt/torch/.venv/bin/python3 -test.bench Tensor;
## build/probe-bin/probe.py is the probe for testdata/python/gpu_demo.py.
test-probe-bin:
	rm -rf build/probe-bin && mkdir -p build/probe-bin/inspect build/probe-bin/testdata
	$(GO) test -c -o build/probe-bin/inspect/probe.test ./inspect
	cp -r inspect/testdata build/probe-bin/inspect/
	cp -r testdata/python testdata/parity build/probe-bin/testdata/
	$(GO) run ./internal/probesource build/probe-bin/probe.py
	printf '%s\n' '#!/bin/sh' '# run.sh PYTHON [flags]: the probe tables (and -test.bench ones) in PYTHON' \
		'cd "$$(dirname "$$0")/inspect" && py="$$1" && shift && DAPSCOPE_PYTHON="$$py" exec ./probe.test -test.count=1 -test.v -test.run '"'"'^($(PROBE_TABLES))$$'"'"' "$$@"' \
		> build/probe-bin/run.sh
	chmod +x build/probe-bin/run.sh

test-go: check-size
	@unformatted=$$($$($(GO) env GOROOT)/bin/gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 25m ./...

## test-native: the C, C++ and Rust sessions under lldb-dap (Debian's
## lldb-19; gcc, g++ and cargo build testdata/native into a temporary
## directory), and the 1M-element Vec<f64> benchmark beside lldb-dap's own
## variables. test-go runs the same tests; this runs them alone.
NATIVE_TESTS := TestLLDB|TestInspectNativeBinary|TestRustFormattersForRustOnly|TestLLDBDapCandidatesNewestFirst|TestNativePaths
test-native:
	$(GO) test -count=1 -run '$(NATIVE_TESTS)' . ./server/adapter ./server/session ./server/mcp ./platform ./inspect
	$(GO) test -run XXX -bench BenchmarkLLDBVec1M -benchtime 20x -count 5 ./server/session

## check-size: no tracked non-test source file (Go, Python, JavaScript,
## TypeScript) over 450 lines. Tests (*_test.go, *.test.ts, *.test.mjs,
## test/ folders), testdata, e2e and node_modules are not counted.
MAX_LINES  := 450
SOURCES    := '*.go' '*.py' '*.js' '*.mjs' '*.ts'
NOT_SOURCE := (_test\.go|\.test\.ts|\.test\.mjs)$$|^testdata/|/testdata/|/e2e/|/test/|node_modules/
check-size:
	@long=$$(git ls-files $(SOURCES) | grep -vE '$(NOT_SOURCE)' | xargs -r wc -l \
		| awk '$$2 != "total" && $$1 > $(MAX_LINES) {print "  " $$2 " (" $$1 " lines)"}'); \
	if [ -n "$$long" ]; then printf 'source files over $(MAX_LINES) lines (split them by feature):\n%s\n' "$$long"; exit 1; fi

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
	rm -rf dapscope bench.txt dist build/probe-bin
