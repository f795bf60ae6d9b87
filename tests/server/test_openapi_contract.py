"""The OpenAPI document says exactly what the server accepts: schemathesis, with every check, against a real server.

schemathesis reads /api/openapi.json and sends what it allows (each must be accepted: ST202 otherwise), what it
forbids (each must be refused), methods it does not list (405 with Allow), and chains of calls along its links
(a table created, then read and joined). Every answer must be one the document declares, error codes included.
A few hundred cases in CI; UNOKART_FUZZ_EXAMPLES (the fuzz suite's campaign size) asks for more: a hundredth
of it as examples per operation (UNOKART_FUZZ_EXAMPLES=16000: about 2,000 cases). Its configuration, with the
reason for each setting, is schemathesis.toml beside this file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.server import Server, finished_game, serve_for_module

CONFIG = Path(__file__).with_name("schemathesis.toml")
CI_EXAMPLES = 15  # per operation, fuzzing phase: with the coverage and stateful phases, a few hundred cases
CAMPAIGN = int(os.environ.get("UNOKART_FUZZ_EXAMPLES", "0") or 0)


def examples_per_operation() -> int:
    # A run counts about 330 cases of its coverage and stateful phases, and 11 more for each example per operation.
    return max(CI_EXAMPLES, CAMPAIGN // 100)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server holding one finished game (so that the games' routes have one to find, through GET /api/games's
    link), restarted with bots that wait an hour before each move: schemathesis starts many tables of bots, some of
    the slowest levels, and their games would otherwise take the machine from the other tests for the module's
    length."""
    db = tmp_path_factory.mktemp("contract") / "unokart.sqlite"
    quick = Server(db)
    finished_game(quick)
    quick.stop()
    yield from serve_for_module(db, bot_delay=3600)


def test_schemathesis_with_every_check_finds_nothing_the_document_and_the_server_disagree_on(server, tmp_path):
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run",
               server.url + "/api/openapi.json", "--checks", "all", "--max-examples", str(examples_per_operation()),
               "--workers", "1", "--no-color", "--report-dir", str(tmp_path)]
    ran = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    output = ran.stdout + ran.stderr
    counted = re.search(r"(\d+) generated", output)
    assert ran.returncode == 0 and "No issues found" in output, output[-6000:]
    assert counted and int(counted.group(1)) >= 200, output[-2000:]  # it ran the cases it was asked for
    print(f"schemathesis: {counted.group(1)} cases, no issue")
