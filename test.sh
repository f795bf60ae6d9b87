#!/usr/bin/env bash
# Runs every test of unokart on a fresh machine: installs what the tests need
# (Debian's chromium, tmux, redis-server and postgresql; unokart with its test
# and scale extras, its rules core compiled as users get it, into .venv), then
# the whole suite with pytest.
set -euo pipefail
cd "$(dirname "$0")"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
# redis-server and postgresql serve tests/scale (started there on free loopback ports, stopped after).
# fontconfig's fc-list: tests/web checks that its machine without fonts has none.
if ! command -v chromium >/dev/null 2>&1 || ! command -v tmux >/dev/null 2>&1 || ! command -v fc-list >/dev/null 2>&1 \
   || ! command -v redis-server >/dev/null 2>&1 || ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium tmux redis-server postgresql fontconfig >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
# scale: Ray for the distributed tournament (a ~80 MB wheel, about 30 s to install here).
.venv/bin/python -m pip install -q --disable-pip-version-check '.[test,scale]'
exec .venv/bin/python -m pytest -n 2 "$@"
