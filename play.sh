#!/usr/bin/env bash
# Installs unokart into .venv and starts the game server: open the address it prints.
# Arguments go to `unokart serve` (e.g. ./play.sh --port 9000).
# The install (with the mypyc compile, about half a minute) runs only when the
# sources changed since the last one: a second start answers within a second or two.
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
# What was installed: a hash of every source file (works in a fresh clone, with
# uncommitted edits, and outside git); caches and build products do not count.
sources=$( { find pyproject.toml setup.py src -type f \
              ! -path '*/__pycache__/*' ! -path '*.egg-info/*' ! -name '*.pyc' ! -name '*.so' \
              -print0 2>/dev/null || true; } | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1)
stamp=.venv/.unokart-installed
if [ ! -x .venv/bin/unokart ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sources" ]; then
  rm -f "$stamp"
  .venv/bin/python -m pip install -q --disable-pip-version-check .
  echo "$sources" > "$stamp"
fi
exec .venv/bin/unokart serve "$@"
