#!/usr/bin/env bash
# Runs every test of unokart on a fresh machine: installs what the tests need
# (Debian's chromium and tmux; unokart with its test extras, its rules core
# compiled as users get it, into .venv), then the whole suite with pytest.
set -euo pipefail
cd "$(dirname "$0")"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
if ! command -v chromium >/dev/null 2>&1 || ! command -v tmux >/dev/null 2>&1; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium tmux >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check '.[test]'
exec .venv/bin/python -m pytest -n 2 "$@"
