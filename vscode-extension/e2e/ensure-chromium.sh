#!/usr/bin/env bash
# Installs Debian chromium if missing (the webview test and the e2e need it).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[ -x /usr/bin/chromium ] || ensure_chromium
