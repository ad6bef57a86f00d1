#!/usr/bin/env bash
# requirements/venv.sh LOCK LINK [PYTHON]: make LINK (.venv) point to a
# virtual environment installed from LOCK (pip install --require-hashes).
#
# The environment is built once per (lock, interpreter) under the user's
# cache directory ($XDG_CACHE_HOME/dapscope/venvs, else ~/.cache/...), so a
# fresh clone on a machine where it was built before (CI) links it at once
# instead of downloading ~1.5 GB again. A build that did not finish leaves
# no .complete marker and is redone; concurrent builds of the same key wait
# for each other (flock). Python's own bytecode cache goes to the
# environment as usual; nothing is written in the checkout but the link.
set -euo pipefail
lock=$1 link=$2 py=${3:-/usr/bin/python3}
[ -f "$lock" ] || { echo "venv.sh: no lock file $lock" >&2; exit 2; }
command -v "$py" >/dev/null || { echo "venv.sh: no interpreter $py" >&2; exit 2; }
ver=$("$py" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
key=$( { cat "$lock"; echo "$py $ver"; } | sha256sum | cut -c1-16)
root=${XDG_CACHE_HOME:-$HOME/.cache}/dapscope/venvs
dir=$root/$(basename "$lock" .txt)-py$ver-$key
mkdir -p "$root"
exec 9>"$dir.lock"
flock 9
if [ ! -f "$dir/.complete" ]; then
	echo "setup: building $dir from $lock (once per lock; later clones link it)"
	rm -rf "$dir"
	if ! "$py" -m venv "$dir" 2>/dev/null; then
		echo "venv.sh: $py -m venv failed: install Debian's python3-venv" >&2
		exit 1
	fi
	PIP_DISABLE_PIP_VERSION_CHECK=1 "$dir/bin/python" -m pip install -q --require-hashes --no-deps -r "$lock"
	"$dir/bin/python" -m pip check
	touch "$dir/.complete"
fi
ln -sfn "$dir" "$link.tmp.$$" && mv -T "$link.tmp.$$" "$link"
