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
# nodejs (Debian's): tests/js checks the browser client's state module with Node's own test runner, no npm.
if ! command -v node >/dev/null 2>&1; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
# scale: Ray for the distributed tournament (a ~80 MB wheel, about 30 s to install here).
.venv/bin/python -m pip install -q --disable-pip-version-check '.[test,scale]'
if [ $# -gt 0 ]; then exec .venv/bin/python -m pytest -n 2 "$@"; fi
node --test tests/js/*.test.mjs
UNOKART_BUILD=compiled .venv/bin/python -m pytest -n 2
# The rules core, the bots and the env again on the pure-Python sources mypyc compiles, so that the
# two builds cannot drift (tests/rules/test_the_build_is_the_one_expected.py checks which one ran).
UNOKART_BUILD=pure PYTHONPATH="$PWD/src" exec .venv/bin/python -m pytest -n 2 -p no:cacheprovider tests/rules tests/bots tests/env
