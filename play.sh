#!/usr/bin/env bash
# Installs unokart into .venv and starts the game server: open the address it prints.
# Arguments go to `unokart serve` (e.g. ./play.sh --port 9000).
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check .
exec .venv/bin/unokart serve "$@"
