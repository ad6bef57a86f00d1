#!/usr/bin/env bash
# End-to-end test in a real VS Code (code-server in headless Chromium):
# installs what is missing (cached), packages the extension (.vsix with the
# sidecar), installs it into a fresh code-server, runs e2e/scenario.mjs
# (F5 → stop → hover df → webview from the Variables view → step → refresh →
# MCP endpoint), then e2e/scenario-node.mjs (a `"type": "node"` session of
# VS Code's own js-debug, joined through the bridge), then
# e2e/scenario-kernel.mjs (a real Jupyter kernel, started here in the
# runtime directory the sidecar searches: the Kernel variables view and the
# data viewer on its DataFrame), stops every process it started, prints
# PASS/FAIL; then e2e/scenario-rust.mjs (dapscope's Rust test program, built
# here with cargo, under lldb-dap: the Vec<f64>'s smart value, hovers, the
# webview and the data viewer), then e2e/scenario-lldb-dap.mjs (the same
# program in a `"type": "lldb-dap"` session of the editor's own, from
# e2e/lldb-dap-ext, a test-only stand-in for LLVM's extension that starts
# Debian's lldb-dap-19, joined through the bridge: the hover, the webview,
# the data viewer and an MCP agent); then e2e/scenario-processes.mjs (a
# multiprocessing fork Pool, testdata/python/mp_tree.py: "Compare across
# Processes" from a worker's Variables view, a row per worker).
# Then e2e/scenario-ray.mjs when the Python has ray (a local Ray cluster,
# two tasks paused: "Attach to Paused Ray Tasks", both compared).
# E2E_ONLY=python|node|kernel|rust|lldb-dap|processes|ray runs one scenario
# (or several, comma-separated).
# Screenshots and logs: artifacts/e2e/.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
EXT="$(dirname "$HERE")"
ROOT="$(dirname "$EXT")"
source "$HERE/lib.sh"

ARTIFACTS="${DAPSCOPE_E2E_ARTIFACTS:-$ROOT/artifacts/e2e}"
T="$(mktemp -d /tmp/dapscope-e2e.XXXXXX)"
PGID=""

cleanup() {
  local rc=$?
  if [ -n "$PGID" ]; then
    kill -TERM -- "-$PGID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 -- "-$PGID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$PGID" 2>/dev/null
  fi
  mkdir -p "$ARTIFACTS/logs"
  cp "$T/code-server.log" "$T/kernel.log" "$ARTIFACTS/logs/" 2>/dev/null
  find "$T/ud/logs" -name '*.log' \( -path '*dapscope*' -o -name 'exthost*.log' -o -name 'remoteexthost.log' \) -exec cp {} "$ARTIFACTS/logs/" \; 2>/dev/null
  rm -rf "$T"
  return $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { log "$*"; echo "E2E FAIL: $*"; exit 1; }

mkdir -p "$ARTIFACTS"
rm -f "$ARTIFACTS"/*.png
ensure_chromium || fail "could not install chromium"
ensure_code_server || fail "could not install code-server"
if [ ! -d "$ROOT/node_modules/playwright-core" ] || [ ! -d "$ROOT/node_modules/@vscode/vsce" ]; then
  log "installing npm dev dependencies"
  (cd "$ROOT" && npm ci --no-audit --no-fund >/dev/null) || fail "npm ci failed"
fi
if [ "${1:-}" = "--setup-only" ]; then log "e2e dependencies ready in $E2E_CACHE"; exit 0; fi

log "packaging the extension (.vsix with the sidecar)"
VSIX="$T/dapscope.vsix"
(cd "$ROOT" && DAPSCOPE_VSIX="$VSIX" npm run -s package >"$T/package.log" 2>&1) || { tail -30 "$T/package.log"; fail "packaging failed"; }
# (the listing is read whole: grep -q quitting early would SIGPIPE unzip, which pipefail counts as a failure)
LISTING="$(unzip -l "$VSIX")" || fail "cannot list the .vsix"
grep -q 'extension/bin/dapscope' <<<"$LISTING" || fail "the .vsix lacks bin/dapscope"

only="${E2E_ONLY:-}"
want() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
# The lldb-dap binary of the `lldb-dap` debug type (the newest lldb-dap-N,
# as the LLVM extension's `lldb-dap.executable-path` names it on Debian).
LLDB_DAP="$(ls /usr/bin/lldb-dap-[0-9]* 2>/dev/null | sort -V | tail -1)"
[ -n "$LLDB_DAP" ] || LLDB_DAP="$(command -v lldb-dap || true)"
LLDB_DAP_VSIX=""
if want lldb-dap && command -v cargo >/dev/null && [ -n "$LLDB_DAP" ]; then
  log "packaging the test-only lldb-dap extension (e2e/lldb-dap-ext)"
  LLDB_DAP_VSIX="$T/lldb-dap-e2e.vsix"
  cp -r "$HERE/lldb-dap-ext" "$T/lldb-dap-ext"
  (cd "$T/lldb-dap-ext" && "$ROOT/node_modules/.bin/vsce" package --no-dependencies --allow-missing-repository --skip-license -o "$LLDB_DAP_VSIX" >"$T/package-lldb-dap.log" 2>&1) || { cat "$T/package-lldb-dap.log"; fail "packaging e2e/lldb-dap-ext failed"; }
fi

mkdir -p "$T/home" "$T/ud/User" "$T/ext" "$T/ws"
mkdir -m 700 "$T/runtime"
cp -r "$HERE/workspace/." "$T/ws/"
cp "$ROOT/testdata/python/mp_tree.py" "$T/ws/mp_tree.py"
if command -v cargo >/dev/null && { want rust || want lldb-dap; }; then
  cp -r "$ROOT/testdata/native/rust" "$T/ws/rust"
  (cd "$T/ws/rust" && cargo build -q >"$T/cargo.log" 2>&1) || { cat "$T/cargo.log"; fail "cargo build of the Rust test program failed"; }
fi
cat > "$T/ud/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "editor.hover.delay": 300,
  "editor.minimap.enabled": false,
  "debug.inlineValues": "off",
  "debug.openDebug": "openOnDebugBreak",
  "debug.internalConsoleOptions": "neverOpen",
  "window.restoreWindows": "none",
  "files.hotExit": "off",
  "window.customMenuBarAltFocus": false,
  "dapscope.sidecarLogLevel": "debug",
  "dapscope.trace.dap": true
}
JSON
if [ -n "$LLDB_DAP_VSIX" ]; then
  python3 - "$T/ud/User/settings.json" "$LLDB_DAP" <<'PY'
import json, sys
p, exe = sys.argv[1], sys.argv[2]
s = json.load(open(p))
s["lldb-dap.executable-path"] = exe
json.dump(s, open(p, "w"), indent=2)
PY
fi

NODE="$NODE24_DIR/bin/node"
# code-server runs with a fresh HOME: rustup (rustc --print sysroot, which
# finds the Rust formatters for lldb) keeps reading the real user's toolchains.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
# The `lldb-dap` configuration's initCommands load the Rust formatters from
# ${env:DAPSCOPE_E2E_RUST_SYSROOT} (a bridged session's own configuration:
# dapscope adds nothing to it).
if command -v rustc >/dev/null; then export DAPSCOPE_E2E_RUST_SYSROOT="$(rustc --print sysroot)"; fi
# The Python leg (internal/testpython): make e2e runs the modern one (the
# .venv: debugpy 1.8, pandas 3, ipykernel 7); by hand, Debian's python3.
PY="${DAPSCOPE_PYTHON:-/usr/bin/python3}"
export E2E_PYTHON="$PY"
# …and the sidecar in code-server finds the same one as the venv it runs in.
if [ "$PY" != /usr/bin/python3 ]; then export VIRTUAL_ENV="$(dirname "$(dirname "$PY")")"; else unset VIRTUAL_ENV; fi
log "Python: $PY"
CS=(env HOME="$T/home" JUPYTER_RUNTIME_DIR="$T/runtime" "$NODE" "$CS_DIR/out/node/entry.js" --user-data-dir "$T/ud" --extensions-dir "$T/ext" --disable-telemetry --disable-update-check)
log "installing the .vsix into a fresh code-server"
"${CS[@]}" --install-extension "$VSIX" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "code-server --install-extension failed"; }
ls "$T/ext" | grep -q '^dapscope\.dapscope' || { cat "$T/install.log"; fail "extension not installed"; }
if [ -n "$LLDB_DAP_VSIX" ]; then
  "${CS[@]}" --install-extension "$LLDB_DAP_VSIX" >>"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "installing e2e/lldb-dap-ext failed"; }
  ls "$T/ext" | grep -q '^dapscope-e2e\.lldb-dap-e2e' || { cat "$T/install.log"; fail "e2e/lldb-dap-ext not installed"; }
fi
[ -x "$T"/ext/dapscope.dapscope-*/bin/dapscope ] || chmod +x "$T"/ext/dapscope.dapscope-*/bin/dapscope

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
# The kernel runs in code-server's process group (stopped with it), in the
# workspace, as a user's `jupyter console` or notebook server would start it.
KERNEL_FILE="$T/runtime/kernel-dapscope-e2e.json"
log "starting code-server on 127.0.0.1:$PORT, and a Jupyter kernel ($KERNEL_FILE)"
setsid bash -c 'echo $$ > "$0/pgid"; (cd "$0/ws" && HOME="$0/home" exec "$E2E_PYTHON" -m ipykernel_launcher -f "$0/runtime/kernel-dapscope-e2e.json" >"$0/kernel.log" 2>&1) & exec "$@"' "$T" "${CS[@]}" \
  --bind-addr "127.0.0.1:$PORT" --auth none --disable-workspace-trust --reconnection-grace-time 5 "$T/ws" \
  >"$T/code-server.log" 2>&1 &
for _ in $(seq 1 50); do [ -s "$T/pgid" ] && break; sleep 0.1; done
PGID="$(cat "$T/pgid" 2>/dev/null)"
[ -n "$PGID" ] || fail "code-server did not start"
for i in $(seq 1 120); do
  curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$PGID" 2>/dev/null || { cat "$T/code-server.log"; fail "code-server exited"; }
  sleep 1
done
curl -fs -o /dev/null "http://127.0.0.1:$PORT/healthz" || fail "code-server not healthy after 120 s"

if [ -n "${E2E_KEEP:-}" ]; then
  echo "http://127.0.0.1:$PORT/?folder=$T/ws $T" > "$E2E_KEEP"
  log "E2E_KEEP: code-server stays up until $E2E_KEEP is removed"
  while [ -e "$E2E_KEEP" ]; do sleep 1; done
  exit 0
fi
rc=0
failed=()
scenario() { # name file: runs one scenario against this window, adds its failure to rc
  local s0=$SECONDS r
  log "running the $1 scenario"
  E2E_URL="http://127.0.0.1:$PORT/?folder=$T/ws" E2E_WS="$T/ws" E2E_USERDATA="$T/ud" E2E_ARTIFACTS="$ARTIFACTS" E2E_HOME="$T/home" \
    E2E_KERNEL_FILE="$KERNEL_FILE" CHROMIUM=/usr/bin/chromium NODE_PATH="$ROOT/node_modules" \
    node "$HERE/$2" 2>&1 | tee "$T/scenario-$1.out"
  r=${PIPESTATUS[0]}
  log "the $1 scenario took $((SECONDS - s0)) s"
  if [ "$r" != 0 ]; then failed+=("$1"); [ $rc = 0 ] && rc=$r; fi
}
want python && scenario Python scenario.mjs
# VS Code's own js-debug joined through the bridge, same window.
want node && scenario JavaScript scenario-node.mjs
# A live Jupyter kernel: the Kernel variables view and the data viewer.
want kernel && scenario kernel scenario-kernel.mjs
# Rust under lldb-dap (the program built here; skipped, saying so, without cargo).
if want rust; then
  if command -v cargo >/dev/null; then
    scenario Rust scenario-rust.mjs
  else
    log "no cargo: the Rust scenario is skipped"
  fi
fi
# The same program in the editor's own lldb-dap session, bridged.
if want lldb-dap; then
  if [ -n "$LLDB_DAP_VSIX" ]; then
    scenario lldb-dap scenario-lldb-dap.mjs
  else
    log "no cargo or no lldb-dap: the lldb-dap scenario is skipped"
  fi
fi
# A multiprocessing Pool: Compare across Processes.
want processes && scenario processes scenario-processes.mjs
# A local Ray cluster (skipped, saying so, when the Python has no ray).
if want ray; then
  if "$PY" -c 'import ray' 2>/dev/null; then
    scenario Ray scenario-ray.mjs
  else
    log "no ray in $PY: the Ray scenario is skipped"
  fi
fi
if [ $rc = 0 ]; then
  echo "E2E PASS: dapscope in code-server (screenshots in $ARTIFACTS)"
else
  # The failed scenarios' last lines again, where a CI log's tail shows them.
  for f in "${failed[@]}"; do echo "---- the $f scenario's last lines"; tail -n 25 "$T/scenario-$f.out"; done
  echo "E2E FAIL: the ${failed[*]} scenario(s) failed (rc=$rc; screenshots and logs in $ARTIFACTS)"
fi
exit $rc
