"""docs/PROTOCOL.md and the protocol's models say the same thing: every message, field and error code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from unokart.server import protocol
from unokart.server.cli import policies

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
    assert f"1 to {protocol.MAX_NAME_CHARS} characters as sent" in DOC
    assert f"over {protocol.MAX_SEATS - 1}, `400 no_such_seat`" in DOC
    hands = {seats: protocol.largest_hand(seats) for seats in range(2, protocol.MAX_SEATS + 1)}
    assert f"{hands[3]} at 3 seats, {hands[4]} at 4, {hands[10]} at 10" in DOC, hands
    assert f"`hand_size` 1 to {protocol.MAX_HAND_SIZE}" in DOC and f"`seats`: 2 to {protocol.MAX_SEATS}" in DOC
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
    routes = _published_routes(document)
    sections = _route_sections()
    assert set(sections) <= set(routes), sorted(set(sections) - set(routes))
    for route, text in sections.items():
        responses = routes[route]["responses"]
        documented = _statuses(text)
        published = {status for status in responses if status[0] in "45"}
        assert documented <= published, (route, sorted(documented - published))
        for status in published - ({"503"} if route == ("get", "/api/health") else set()):
            schema = responses[status]["content"]["application/json"]["schema"]
            assert schema["allOf"] == [{"$ref": "#/components/schemas/ErrorReply"}], (route, status)
    # Every body may be refused as too large (section 2: 413 too_large), and the published limits are the real ones.
    for route in (("post", "/api/tables"), ("post", "/api/tables/{}/join")):
        assert "413" in routes[route]["responses"], route
    name = schemas["JoinTable"]["properties"]["name"]
    assert name["maxLength"] == protocol.MAX_NAME_CHARS and name["minLength"] == 1
    assert [name["pattern"], name["allOf"][0]["pattern"], name["allOf"][1]["not"]["pattern"]] == list(protocol.name_patterns())
    create = schemas["CreateTable"]["properties"]
    assert (create["seats"]["minimum"], create["seats"]["maximum"]) == (2, protocol.MAX_SEATS)
    assert create["bots"]["additionalProperties"]["maxLength"] == protocol.MAX_LEVEL_CHARS
    assert create["bots"]["additionalProperties"]["pattern"] == protocol.level_pattern(policies(None))  # the shipped
    timer = next(branch for branch in create["turn_timer"]["anyOf"] if branch.get("type") == "number")
    assert (timer["minimum"], timer["maximum"]) == protocol.TIMER_RANGE
    rules = schemas["HouseRules"]["properties"]
    target = next(branch for branch in rules["target_score"]["anyOf"] if branch.get("type") == "integer")
    assert target["maximum"] == protocol.MAX_TARGET_SCORE
    hand = next(branch for branch in rules["hand_size"]["anyOf"] if branch.get("type") == "integer")
    assert hand["maximum"] == protocol.MAX_HAND_SIZE


def test_what_a_tables_size_decides_is_stated_for_each_size(server):
    import httpx

    create = httpx.get(server.url + "/api/openapi.json").json()["components"]["schemas"]["CreateTable"]
    stated = {}
    for rule in create["allOf"]:
        seats = rule["if"]["properties"]["seats"]["const"]
        assert ("seats" in rule["if"]["required"]) == (seats != protocol.DEFAULT_SEATS)  # no size given: the default
        if "start" in rule["if"]["properties"]:
            assert rule["then"] == {"required": ["bots"], "properties": {"bots": {"minProperties": seats}}}
            continue
        bots, options = rule["then"]["properties"]["bots"], rule["then"]["properties"]["options"]
        stated[seats] = (bots["propertyNames"]["enum"], options["properties"]["hand_size"]["maximum"])
    assert stated == {seats: ([str(seat) for seat in range(seats)], protocol.largest_hand(seats))
                      for seats in range(2, protocol.MAX_SEATS + 1)}


def _published_routes(document: dict) -> dict:
    return {(method, re.sub(r"\{[^}]*\}", "{}", path)): operation
            for path, item in document["paths"].items() for method, operation in item.items()}


def _documented_codes(text: str, known: set[str]) -> dict[str, set[str]]:
    """The error codes a route's section names, by status: `404 no_such_table`, or Errors `400`: `a`, `b`."""
    codes: dict[str, set[str]] = {}
    status = None
    for token in re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S)):
        numbered = re.fullmatch(r"([1-5]\d\d)(?: (\w+))?", token)
        if numbered:
            status = numbered.group(1)
            token = numbered.group(2) or ""
        if status and status[0] in "45" and token in known:
            codes.setdefault(status, set()).add(token)
    return codes


def test_each_routes_documented_error_codes_are_the_published_ones_status_by_status(server):
    import httpx

    routes = _published_routes(httpx.get(server.url + "/api/openapi.json").json())
    known = {code for line in _section(6).splitlines() if line.startswith("| `")
             for code in re.findall(r"`(\w+)`", line.split("|")[1])}  # the table's first column
    for route, text in _route_sections().items():
        published = {status: set(answer["content"]["application/json"]["schema"]["properties"]["code"]["enum"])
                     for status, answer in routes[route]["responses"].items()
                     if status[0] in "45" and "allOf" in answer["content"]["application/json"]["schema"]}
        assert _documented_codes(text, known) == published, route


def test_the_address_message_budget_is_in_the_protocol_with_the_servers_own_figures():
    """A client written from PROTOCOL.md alone, with all its connections on one address, must learn that they
    share one budget (it got no acknowledgement in 16 s when only the README said so)."""
    from unokart.server.app import ADDRESS_SHARE

    websocket = _section(3)
    assert f"{ADDRESS_SHARE} × `--rate-limit`" in websocket and f"{2 * ADDRESS_SHARE} × `--rate-limit`" in websocket
    default = 20  # serve's --rate-limit
    assert f"({ADDRESS_SHARE * default} by" in websocket and f"({2 * ADDRESS_SHARE * default})" in websocket
    assert "1007" in websocket and "UTF-8" in websocket  # the one close bad input causes besides an oversized frame
