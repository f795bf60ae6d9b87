"""docs/PROTOCOL.md and the protocol's models say the same thing: every message, field and error code."""

from __future__ import annotations

import re
from pathlib import Path

from unokart.server import protocol

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
SOURCES = (Path(protocol.__file__).resolve().parent).glob("*.py")


def _section(number: int) -> str:
    start = DOC.index(f"\n## {number}. ")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


def test_every_client_message_and_each_of_its_fields_is_documented():
    client = _section(4)
    for kind, model in protocol.MESSAGES.items():
        heading = re.search(rf"### `{kind}`.*?```json\n(.*?)```", client, re.S)
        assert heading, f"no section with an example for {kind!r}"
        for field in model.model_fields:
            if field != "id":
                assert f'"{field}"' in heading.group(1), (kind, field)
    for documented in re.findall(r"### `(\w+)`", client):
        assert documented in protocol.MESSAGES, documented


def test_every_http_body_field_is_documented():
    http = _section(2)
    for model in (protocol.CreateTable, protocol.JoinTable, protocol.HouseRules):
        for field in model.model_fields:
            assert f"`{field}`" in http or f'"{field}"' in http, (model.__name__, field)


def test_every_error_code_the_server_can_send_is_in_the_table_of_codes():
    raised = set()
    for source in SOURCES:
        raised |= set(re.findall(r'ServerError\(\s*"(\w+)"', source.read_text(encoding="utf-8")))
    raised |= set(re.findall(r'"(\w+)" if _is_json', (Path(protocol.__file__).parent / "app.py").read_text()))
    table = _section(6)
    documented = set(re.findall(r"`(\w+)`", table[table.index("| code | when |"):]))
    assert raised, "no codes found"
    assert raised <= documented, sorted(raised - documented)


def test_the_documented_limits_are_the_models_limits():
    assert f"at most {protocol.MAX_MESSAGE_BYTES} bytes" in DOC or f"over {protocol.MAX_MESSAGE_BYTES} bytes" in DOC
    assert f"1 to {protocol.MAX_NAME_CHARS}" in DOC
    assert f"`target_score` 1 to {protocol.MAX_TARGET_SCORE}" in DOC
    assert f"`ismcts:<playouts>` (up to {protocol.MAX_PLAYOUTS:,}" in DOC
    assert f"`ismcts:<N>ms` (up to {protocol.MAX_MILLISECONDS:,})" in DOC


def test_the_served_openapi_document_names_every_route_and_the_models_fields(server):
    import httpx

    document = httpx.get(server.url + "/api/openapi.json").json()
    paths = document["paths"]
    for route, method in (("/api/tables", "post"), ("/api/tables", "get"), ("/api/tables/{code}", "get"),
                          ("/api/tables/{code}/join", "post"), ("/api/games", "get"), ("/api/games/{game_id}", "get"),
                          ("/api/games/{game_id}/replay", "get"), ("/api/health", "get")):
        assert method in paths.get(route, {}), (route, method)
    schemas = document["components"]["schemas"]
    for model in (protocol.CreateTable, protocol.JoinTable, protocol.HouseRules):
        assert set(model.model_fields) <= set(schemas[model.__name__]["properties"]), model.__name__
