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

.PHONY: all build setup setup-python setup-debian setup-venv setup-run-venv lock test-debian test-fuzz setup-dlv setup-node setup-node-libs setup-wine run test test-go test-probe test-probe-bin test-native check-size test-cross test-windows test-ext e2e e2e-setup vsix dist bench clean

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
run:
	@$(MAKE) -s -j2 setup-run-venv build
	./dapscope inspect --python $(RUN_VENV) testdata/python/example.py:34 sales prices config model

## test: every test (the probe's tables, Go with -race, every target built
## and vetted, the Windows build under Wine, extension, every VSIX, end to
## end in a real VS Code).
test: setup test-probe test-go test-debian test-fuzz test-cross test-windows test-ext dist e2e

## test-probe: the Python probe's case tables run directly in a Python,
## no debugger: in both legs, or `make test-probe PYTHON=/opt/torch/.venv/bin/python3`.
## Golden bytes hold in Debian's python3 only; in another interpreter each
## case is held to its golden's version-independent facts (facts_test.go).
## The tables need numpy and pandas; torch for the tensor and model cases
## (xarray and dask only for theirs); node for the JavaScript side of the
## parity table (without it, Python's side alone).
PROBE_TABLES := TestProbeGoldens|TestProbeLibraryGoldens|TestProbesParity|TestTensorStatsMatchNumpy|TestBrowseFilterKindsAgainstPandas|TestBrowseSortKindsAgainstPandas|TestPageCellsAsJSONText|TestBrowseCacheBounded|TestPrecisionAndCompactJSON|TestBrowsePrecision|TestProbeWithoutPandas|TestProbeIPythonNamespace|TestStatsMatchPandas|TestBlockStatsMatchPandas|TestFingerprintFollowsContent|TestBrowseFilterRegexNeverBlocks|TestEnginesParity|TestEnginesPagesParity|TestEnginesLazyNotRun|TestEnginesSummaries|TestEnginesDaskCluster|TestEnginesDaskStops|TestEnginesDuckDBTableByName
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
## tables run in test-probe; here the debugpy session suite, the kernel
## suite, and the probe's threaded block pass under debugpy 1.6's pydevd.
test-debian:
	$(DEBIAN) $(GO) test -race -count=1 -timeout 15m ./server/session/ ./server/kernel/...
	$(DEBIAN) $(GO) test -race -count=1 -run '^TestDebugpyThreadedBlockPass$$' ./inspect

## test-fuzz: the fuzz targets of the readers that face hostile input, each
## for a short time (their seed corpora also run in test-go): source maps,
## MCP's JSON-RPC ids, JavaScript filters, ZeroMQ frames, connection files.
FUZZ_TIME ?= 10s
FUZZ_TARGETS := FuzzSourceMap:./server/adapter/node FuzzRPCID:./server/mcp FuzzJSFilter:./inspect FuzzZMTPFrames:./server/kernel FuzzConnectionFile:./server/kernel
test-fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz: $${t%%:*} ($(FUZZ_TIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZ_TIME) -parallel 2 "$${t#*:}" || exit 1; \
	done

## test-native: the C, C++ and Rust sessions under lldb-dap (Debian's
## lldb-19; gcc, g++ and cargo build testdata/native into a temporary
## directory), and the 1M-element Vec<f64> benchmark beside lldb-dap's own
## variables; the Rust/C/C++ code graph (inspect/code). test-go runs the
## same tests; this runs them alone.
NATIVE_TESTS := TestLLDB|TestInspectNativeBinary|TestRustFormattersForRustOnly|TestLLDBDapCandidatesNewestFirst|TestNativePaths|TestNativeEnclosing
test-native:
	$(GO) test -count=1 -run '$(NATIVE_TESTS)' . ./server/adapter ./server/session ./server/mcp ./platform ./inspect ./inspect/code
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

e2e: setup-node setup-venv
	@if [ -x vscode-extension/e2e/run.sh ]; then $(MODERN) vscode-extension/e2e/run.sh; fi
	testdata/jupyterlab/run.sh

## e2e-setup: install what the end-to-end test needs (chromium, Node 24, code-server; cached).
e2e-setup: setup-node
	vscode-extension/e2e/run.sh --setup-only

## vsix: package the extension with the sidecar for this machine's platform.
vsix: setup-node
	npm run package

## dist: one VSIX per released target, plain archives of each binary, SHA256SUMS (in dist/).
dist: setup-node
	npm run -s dist

## bench: the tracked benchmarks (BENCH_SET), in the modern leg, into
## bench/latest.txt (benchstat-friendly; ~15 minutes on 2 cores). Each entry
## is package,regexp,benchtime,count: the inspector through debugpy (1K×10,
## 100K×50 and the held-out 2,500×6 ledger, each beside the trivial-evaluate
## floor; the ledger also beside its per-expression set, bar 0.2×), a page of a 10M-row
## frame, Node's evaluate and pages of 1M rows, the kernel session set,
## launch to the first stop, the engines' later pages of 10M-row polars
## and DuckDB frames (each beside its plain alternative; through debugpy,
## each page timed right after a trivial evaluate: x_plain).
## bench-compare: benchstat between bench/baseline.txt (an accepted run,
## committed) and bench/latest.txt, then every tracked benchmark whose
## median (time, or ratio to its plain alternative) is > 15% above the
## baseline's (bench/slower.awk; LIMIT=0.15). bench-all: every benchmark, count 5.
BENCHSTAT := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
BENCH_SET := \
	'./inspect,^BenchmarkDebugpy$$/^DataFrame(1Kx10|100Kx50|2500x6Ledger)$$/^(floor|inspect)$$,30x,5' \
	'./inspect,^BenchmarkDebugpy$$/^DataFrame2500x6Ledger$$/^per_expression$$,10x,3' \
	'./inspect,^BenchmarkBrowse10M$$/^(floor|unsorted|filtered_first)$$,10x,3' \
	'./server/session,^BenchmarkNodeEvaluate$$,200x,3' \
	'./inspect,^BenchmarkBrowseNode1M$$,10x,3' \
	'./server/kernel,^BenchmarkKernelSession$$,20x,3' \
	'./server/session,^BenchmarkLaunchToFirstStop$$,5x,3' \
	'./inspect,^BenchmarkEngines$$/^(floor|floor_10KB|polars/unsorted_later|polars/sorted_later|duckdb/unsorted_later|duckdb/sorted_later)$$,10x,3' \
	'./inspect,^BenchmarkEnginesDebugpy$$/.*/_paired$$,40x,3'
.PHONY: bench-compare bench-all
# No `setup` prerequisite: in a worktree whose node_modules links to a
# shared install, setup-node's `npm ci` empties the shared install through
# the link (seen once); run `make setup` first where nothing is installed.
bench:
	@mkdir -p bench && { \
		echo "# make bench: polyglot, 2 cores; $$(date -u +%Y-%m-%dT%H:%MZ); $$(git rev-parse --short HEAD 2>/dev/null)"; \
		echo "# command per set: DAPSCOPE_PYTHON=.venv/bin/python VIRTUAL_ENV=.venv $(GO) test -run '^\$$' -bench REGEXP -benchtime N -count C -benchmem PACKAGE"; \
	} > bench/latest.txt
	@set -o pipefail; for e in $(BENCH_SET); do \
		IFS=, read -r pkg re bt n <<< "$$e"; \
		echo "# set: $$pkg $$re -benchtime $$bt -count $$n" >> bench/latest.txt; \
		$(MODERN) $(GO) test -run '^$$' -bench "$$re" -benchtime "$$bt" -count "$$n" -benchmem -timeout 30m "$$pkg" \
			| grep -E '^(Benchmark|goos|goarch|pkg|cpu)' | tee -a bench/latest.txt || exit 1; \
	done

bench-compare:
	@test -f bench/baseline.txt && test -f bench/latest.txt || { echo "bench-compare needs bench/baseline.txt and bench/latest.txt (make bench)"; exit 1; }
	$(GO) run $(BENCHSTAT) bench/baseline.txt bench/latest.txt
	@$(GO) run $(BENCHSTAT) -format csv bench/baseline.txt bench/latest.txt 2>/dev/null | awk -f bench/slower.awk

bench-all: setup
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -timeout 60m ./... | tee bench.txt

## bench-inspect: the inspector against real debugpy (floor vs inspect vs per-expression).
.PHONY: bench-inspect
bench-inspect: setup
	$(GO) test -run '^$$' -bench Debugpy -benchmem -count 5 -timeout 30m ./inspect | tee bench-inspect.txt

clean:
	rm -rf dapscope bench.txt dist build/probe-bin
