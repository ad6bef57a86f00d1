# dapscope — build, set up, run, test, benchmark.
# `make run` and `make test` install whatever is missing first (idempotent).

SHELL      := /bin/bash
GO         ?= go
GOBIN      := $(shell $(GO) env GOPATH)/bin
DLV        := $(GOBIN)/dlv
DLV_VERSION := v1.27.2
# Python: two legs, both in `make test` (internal/testpython says which one
# a test run uses).
# - The modern leg, the main one: .venv, a link to a virtual environment
#   built once per lock under ~/.cache/dapscope/venvs by requirements/venv.sh
#   from requirements/dev.txt (hash-pinned: debugpy 1.8, pandas 3, numpy 2,
#   the data engines, ipykernel 7, Jupyter Server 2, JupyterLab 4, ray;
#   `make lock` recompiles it from requirements/dev.in with pip-tools).
# - Debian's leg, the oldest supported: /usr/bin/python3 with Debian's
#   packages (debugpy 1.6.3, pandas 1.5.3, numpy 1.24, torch, ipykernel 6.17,
#   Jupyter Server 1.23).
DEBIAN_PY  := /usr/bin/python3
VENV       := $(CURDIR)/.venv
VENV_PY    := $(VENV)/bin/python
MODERN     := DAPSCOPE_PYTHON=$(VENV_PY) VIRTUAL_ENV=$(VENV)
DEBIAN     := env -u VIRTUAL_ENV DAPSCOPE_PYTHON=$(DEBIAN_PY)
# `make test-probe PYTHON=…` runs the probe's tables in one other interpreter.
PYTHON     ?=
PY_DEBS    := python3-debugpy python3-pandas python3-numpy python3-torch python3-xarray python3-dask \
              python3-ipykernel python3-jupyter-client jupyter-server
# Debian's packages the rest needs: python3-venv (the .venv), a Java
# runtime for Spark (pyspark in the .venv), lldb-dap for native programs.
SYS_DEBS   := python3-venv openjdk-17-jre-headless lldb-19
# The released targets (make dist; VS Code's linux-x64, linux-arm64,
# darwin-x64, darwin-arm64, win32-x64), as GOOS/GOARCH.
GO_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
export PATH := $(GOBIN):$(PATH)

.PHONY: all build setup setup-python setup-debian setup-venv setup-run-venv lock test-debian setup-dlv setup-node setup-node-libs setup-wine run test test-go test-probe test-probe-bin check-size test-cross test-windows test-ext e2e e2e-setup vsix dist bench clean

all: build

build:
	$(GO) build -o dapscope .

## setup: install what is missing (Debian's packages, the .venv, Delve,
## npm packages, Wine).
setup: setup-debian setup-venv setup-dlv setup-node setup-node-libs setup-wine

setup-python: setup-debian setup-venv

# One apt-get for everything Debian brings (never two at once).
setup-debian:
	@missing=$$(dpkg-query -W -f='$${db:Status-Abbrev} $${Package}\n' $(PY_DEBS) $(SYS_DEBS) 2>/dev/null | awk '$$1 == "ii" {print $$2}' \
		| sort | comm -13 - <(printf '%s\n' $(PY_DEBS) $(SYS_DEBS) | sort)); \
	if [ -n "$$missing" ]; then \
		echo "setup: installing from Debian:" $$missing; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

# The modern leg's environment (requirements/venv.sh: cached per lock).
setup-venv:
	@if ! [ -x $(DEBIAN_PY) ] || ! $(DEBIAN_PY) -c 'import ensurepip' 2>/dev/null; then $(MAKE) -s setup-debian; fi
	requirements/venv.sh requirements/dev.txt .venv $(DEBIAN_PY)

# `make run`'s environment: only what the bundled example needs.
RUN_VENV := build/run-venv
setup-run-venv:
	@if ! $(DEBIAN_PY) -c 'import ensurepip' 2>/dev/null; then $(MAKE) -s setup-debian; fi
	@mkdir -p build && requirements/venv.sh requirements/run.txt $(RUN_VENV) $(DEBIAN_PY)

## lock: recompile requirements/dev.txt and run.txt (hashes) from the .in
## files with pip-tools, in Debian's python3 (the .venv's interpreter).
PIP_COMPILE_FLAGS := --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
lock:
	rm -rf build/pip-tools && $(DEBIAN_PY) -m venv build/pip-tools && build/pip-tools/bin/pip install -q pip-tools==7.6.2
	cd requirements && ../build/pip-tools/bin/pip-compile -q $(PIP_COMPILE_FLAGS) -o dev.txt dev.in
	cd requirements && ../build/pip-tools/bin/pip-compile -q $(PIP_COMPILE_FLAGS) -c dev.txt -o run.txt run.in

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

## run: the main job on the bundled example (installs only what it needs:
## debugpy, pandas and numpy from requirements/run.txt).
run: setup-run-venv build
	./dapscope inspect --python $(RUN_VENV) testdata/python/example.py:34 sales prices config model

## test: every test (the probe's tables, Go with -race, every target built
## and vetted, the Windows build under Wine, extension, every VSIX, end to
## end in a real VS Code).
test: setup test-probe test-go test-debian test-cross test-windows test-ext dist e2e

## test-probe: the Python probe's case tables run directly in a Python,
## no debugger: in both legs, or `make test-probe PYTHON=/opt/torch/.venv/bin/python3`.
## Golden bytes hold in Debian's python3 only; in another interpreter each
## case is held to its golden's version-independent facts (facts_test.go).
## The tables need numpy and pandas; torch for the tensor and model cases
## (xarray and dask only for theirs); node for the JavaScript side of the
## parity table (without it, Python's side alone).
PROBE_TABLES := TestProbeGoldens|TestProbeLibraryGoldens|TestProbesParity|TestTensorStatsMatchNumpy|TestBrowseFilterKindsAgainstPandas|TestBrowseSortKindsAgainstPandas|TestPageCellsAsJSONText|TestBrowseCacheBounded|TestPrecisionAndCompactJSON|TestBrowsePrecision|TestProbeWithoutPandas|TestProbeIPythonNamespace|TestEnginesParity|TestEnginesPagesParity|TestEnginesLazyNotRun|TestEnginesSummaries|TestEnginesDaskCluster
test-probe:
ifneq ($(PYTHON),)
	DAPSCOPE_PYTHON=$(PYTHON) $(GO) test -count=1 -run '^($(PROBE_TABLES))$$' ./inspect
else
	$(MODERN) $(GO) test -count=1 -run '^($(PROBE_TABLES))$$' ./inspect
	$(DEBIAN) $(GO) test -count=1 -run '^($(PROBE_TABLES))$$' ./inspect
endif

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
	$(MODERN) $(GO) test -race -count=1 -timeout 25m ./...

## test-debian: Debian's leg (the oldest supported Python stack): the probe
## tables run in test-probe; here the debugpy session suite and the kernel
## suite.
test-debian:
	$(DEBIAN) $(GO) test -race -count=1 -timeout 15m ./server/session/ ./server/kernel/...

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
