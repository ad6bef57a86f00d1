#!/usr/bin/env bash
# End-to-end test with JupyterLab 4 as the user's real client (issue #31):
# starts `jupyter lab` (the pinned .venv) on 127.0.0.1 with a random port and
# a random token (passed by environment, never on argv) in a private home,
# then scenario.mjs drives Debian's chromium through playwright-core: the
# user opens sales.ipynb and runs its cells, dapscope lists and inspects the
# kernel through the Jupyter Server (CLI and MCP over stdio), the user debugs
# a cell in JupyterLab's debugger while dapscope reads the paused frame, and
# the kernel keeps no trace of dapscope. Prints `E2E PASS: jupyterlab` only
# if every check passed. Every process it started is stopped (one process
# group, trap). Screenshots and logs: artifacts/e2e/jupyterlab-*.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ARTIFACTS="${DAPSCOPE_E2E_ARTIFACTS:-$ROOT/artifacts/e2e}"
VENV="${DAPSCOPE_JUPYTER_VENV:-$ROOT/.venv}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
T="$(mktemp -d /tmp/dapscope-jlab.XXXXXX)"
PGID=""
SPGID=""
S0=$SECONDS

log() { printf '[jupyterlab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

cleanup() {
  local rc=$?
  local g p
  for g in $SPGID $PGID; do
    kill -TERM -- "-$g" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 -- "-$g" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$g" 2>/dev/null
  done
  wait 2>/dev/null
  # playwright starts chromium in a process group of its own: its processes
  # are the ones whose command line names this run's profile directory.
  for p in $(grep -l -- "$T/chromium" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3); do kill -KILL "$p" 2>/dev/null; done
  mkdir -p "$ARTIFACTS/logs"
  cp "$T/jupyter.log" "$ARTIFACTS/logs/jupyterlab-server.log" 2>/dev/null
  cp "$T/mcp.log" "$ARTIFACTS/logs/jupyterlab-mcp.log" 2>/dev/null
  cp "$T/mcp.log.stderr" "$ARTIFACTS/logs/jupyterlab-mcp.stderr.log" 2>/dev/null
  rm -rf "$T"
  return $rc
}
trap cleanup EXIT
trap 'echo "E2E FAIL: jupyterlab: interrupted"; exit 130' INT TERM

fail() { log "$*"; echo "E2E FAIL: jupyterlab: $*"; exit 1; }

mkdir -p "$ARTIFACTS"
rm -f "$ARTIFACTS"/jupyterlab-*.png
[ -x "$VENV/bin/jupyter" ] || fail "no jupyter in $VENV (make setup-venv)"
[ -x "$CHROMIUM" ] || fail "no chromium at $CHROMIUM"
[ -d "$ROOT/node_modules/playwright-core" ] || fail "no node_modules/playwright-core (npm ci)"
log "building dapscope"
(cd "$ROOT" && go build -o dapscope .) || fail "go build failed"

# A private Jupyter: its own home, config, data, runtime and IPython dirs.
mkdir -p "$T/home" "$T/config" "$T/data" "$T/ipython" "$T/ws"
mkdir -m 700 "$T/runtime" "$T/secret"
cp "$HERE/sales.ipynb" "$T/ws/"
# No news toast over the notebook.
mkdir -p "$T/config/labconfig"
echo '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}' > "$T/config/labconfig/page_config.json"
umask 077
python3 -c 'import secrets; print(secrets.token_hex(24), end="")' > "$T/secret/token"
umask 022
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
URL="http://127.0.0.1:$PORT/"
ROOTFLAG=""; [ "$(id -u)" = 0 ] && ROOTFLAG=--allow-root  # containers and CI run as root
log "starting JupyterLab on $URL (workspace $T/ws)"
# setsid: jupyter, its kernels and everything the scenario starts share one
# process group that cleanup stops. The token goes by environment
# (JUPYTER_TOKEN, read by jupyter_server's IdentityProvider), not argv.
setsid env -i PATH="$VENV/bin:/usr/bin:/bin" HOME="$T/home" LANG=C.UTF-8 \
  JUPYTER_CONFIG_DIR="$T/config" JUPYTER_DATA_DIR="$T/data" JUPYTER_RUNTIME_DIR="$T/runtime" \
  IPYTHONDIR="$T/ipython" ROOTFLAG="$ROOTFLAG" T="$T" PORT="$PORT" VENV="$VENV" \
  bash -c 'echo $$ > "$T/pgid"; JUPYTER_TOKEN="$(cat "$T/secret/token")" exec "$VENV/bin/jupyter" lab \
    --ServerApp.ip=127.0.0.1 --ServerApp.port="$PORT" --ServerApp.port_retries=0 --no-browser \
    --ServerApp.root_dir="$T/ws" --LabApp.news_url=None \
    --LabApp.extension_manager=readonly $ROOTFLAG' >"$T/jupyter.log" 2>&1 &
for _ in $(seq 1 50); do [ -s "$T/pgid" ] && break; sleep 0.1; done
PGID="$(cat "$T/pgid" 2>/dev/null)"
[ -n "$PGID" ] || fail "jupyter lab did not start"
ok=""
for _ in $(seq 1 120); do
  if curl -fs -o /dev/null "${URL}api"; then ok=1; break; fi
  kill -0 -- "-$PGID" 2>/dev/null || { tail -30 "$T/jupyter.log" >&2; fail "jupyter lab exited"; }
  sleep 0.5
done
[ -n "$ok" ] || { tail -30 "$T/jupyter.log" >&2; fail "jupyter lab did not answer within 60 s"; }
if grep -q "$(cat "$T/secret/token")" /proc/"$PGID"/cmdline 2>/dev/null; then fail "the token is on jupyter's command line"; fi
log "JupyterLab is up after $((SECONDS - S0)) s"

# The scenario (node, dapscope's CLI and MCP) runs in a process group of its
# own, stopped by cleanup too: nothing outlives this script.
E2E_URL="$URL" E2E_TOKEN_FILE="$T/secret/token" E2E_ARTIFACTS="$ARTIFACTS" E2E_TMP="$T" \
  E2E_DAPSCOPE="$ROOT/dapscope" CHROMIUM="$CHROMIUM" NODE_PATH="$ROOT/node_modules" \
  setsid bash -c 'echo $$ > "$E2E_TMP/spgid"; exec node "$0"' "$HERE/scenario.mjs" &
SPID=$!
for _ in $(seq 1 50); do [ -s "$T/spgid" ] && break; sleep 0.1; done
SPGID="$(cat "$T/spgid" 2>/dev/null)"
wait "$SPID"
rc=$?
log "the scenario took $((SECONDS - S0)) s in all"
[ $rc = 0 ] || fail "the scenario failed (rc=$rc; screenshots and logs in $ARTIFACTS)"
echo "E2E PASS: jupyterlab (screenshots in $ARTIFACTS, $((SECONDS - S0)) s)"
