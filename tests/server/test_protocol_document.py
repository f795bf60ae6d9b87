"""docs/PROTOCOL.md and the protocol's models say the same thing: every message, field and error code."""

from __future__ import annotations

import json
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
    assert f"`ismcts:<N>ms` (1 to {protocol.MAX_MILLISECONDS:,})" in DOC


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


def _route_sections() -> dict[tuple[str, str], str]:
    """Each HTTP route's part of section 2, by (method, path with its parameters written as {})."""
    http = _section(2)
    parts = re.split(r"\n### `(GET|POST) (/[^`]*)`", http)
    return {(method.lower(), re.sub(r"\{[^}]*\}", "{}", path.split("?")[0])): text
            for method, path, text in zip(parts[1::3], parts[2::3], parts[3::3])}


def _statuses(text: str) -> set[str]:
    """The refusal statuses a route's section names: `404 no_such_table`, Errors `400`: ..."""
    return set(re.findall(r"`([45]\d\d)[` ]", text))


def test_the_openapi_document_describes_the_real_refusals_and_limits(server):
    import httpx

    document = httpx.get(server.url + "/api/openapi.json").json()
    schemas = document["components"]["schemas"]
    # The server never answers 422: its refusals are 400 with the protocol's error body.
    assert "422" not in json.dumps(document["paths"]) and "HTTPValidationError" not in schemas
    error = schemas["ErrorReply"]["properties"]
    assert {"type", "code", "message", "rule", "version", "re", "retry_after"} <= set(error)
    routes = {(method, re.sub(r"\{[^}]*\}", "{}", path)): operation
              for path, item in document["paths"].items() for method, operation in item.items()}
    sections = _route_sections()
    assert set(sections) <= set(routes), sorted(set(sections) - set(routes))
    for route, text in sections.items():
        responses = routes[route]["responses"]
        documented = _statuses(text)
        published = {status for status in responses if status[0] in "45"}
        assert documented <= published, (route, sorted(documented - published))
        for status in published:
            assert responses[status]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorReply"}
    # Every body may be refused as too large (section 2: 413 too_large), and the published limits are the real ones.
    for route in (("post", "/api/tables"), ("post", "/api/tables/{}/join")):
        assert "413" in routes[route]["responses"], route
    name = schemas["JoinTable"]["properties"]["name"]
    assert name["maxLength"] == protocol.MAX_NAME_CHARS and name["minLength"] == 1
    create = schemas["CreateTable"]["properties"]
    assert (create["seats"]["minimum"], create["seats"]["maximum"]) == (2, protocol.MAX_SEATS)
    assert [level["maxLength"] for level in create["bots"]["patternProperties"].values()] == [protocol.MAX_LEVEL_CHARS]
    timer = next(branch for branch in create["turn_timer"]["anyOf"] if branch.get("type") == "number")
    assert (timer["minimum"], timer["maximum"]) == protocol.TIMER_RANGE
    rules = schemas["HouseRules"]["properties"]
    target = next(branch for branch in rules["target_score"]["anyOf"] if branch.get("type") == "integer")
    assert target["maximum"] == protocol.MAX_TARGET_SCORE
    hand = next(branch for branch in rules["hand_size"]["anyOf"] if branch.get("type") == "integer")
    assert hand["maximum"] == protocol.MAX_HAND_SIZE
