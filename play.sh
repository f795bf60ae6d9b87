#!/usr/bin/env bash
# Installs unokart in a virtual environment and starts the game.
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/unokart watch "$@"
