"""Every refusal reaches its reader in the reader's language, whole: no English clause inside a Tamil sentence.

Refusals travel as catalogue keys with parameters and are written out for each
reader (an HTTP client's ``?lang=``, a websocket's hello), so the server's own
language never leaks into them; the JSON parser's English detail is not shown.
What may stay in Latin letters: what the client sent (quoted back), protocol and
notation codes, numbers and rule ids.
"""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata

import httpx
import pytest

from helpers.server import Client
from unokart.i18n import t
from unokart.rules.actions import VERBS

# Latin words that are codes, not English: JSON's literals, the format's name, the notation's verbs.
CODES = {"JSON", "true", "false", "null", "ms", *VERBS}


def english_words(text: str) -> list[str]:
    """The Latin words of a sentence that are not an echo of the client's input, a code, a number or a rule id."""
    rest = re.sub(r"'[^']*'", " ", text)              # what the client sent, quoted back
    rest = re.sub(r"\bR\d+(?:\.\d+)*\b", " ", rest)   # rule ids
    rest = re.sub(r"\bismcts\S*", " ", rest)          # bot levels
    return [word for word in re.findall(r"[A-Za-z]+", rest) if word not in CODES]


def assert_tamil(message: str) -> None:
    assert any(unicodedata.name(c, "").startswith("TAMIL") for c in message), message
    assert english_words(message) == [], message


HTTP_CASES = [
    ({"options": {"turbo": True}}, "bad_options"),
    ({"seats": "4"}, "wrong_type"),
    ({"seats": 10, "options": {"hand_size": 50}}, "bad_options"),
    ({"options": {"stacking": "yes"}}, "bad_options"),
    ({"options": {"target_score": 0}}, "bad_options"),
    ({"turn_timer": "soon"}, "wrong_type"),
]


@pytest.mark.parametrize("body, code", HTTP_CASES)
def test_a_refused_table_is_explained_wholly_in_tamil_over_http(server, body, code):
    response = httpx.post(server.url + "/api/tables?lang=ta", json=body)
    error = response.json()
    assert response.status_code == 400 and error["code"] == code, error
    assert_tamil(error["message"])
    english = httpx.post(server.url + "/api/tables?lang=en", json=body).json()["message"]
    assert english != error["message"] and english_words(english)  # the same refusal, in English for English readers


def test_the_hands_that_do_not_fit_name_their_rule_beside_the_sentence(server):
    error = httpx.post(server.url + "/api/tables?lang=ta", json={"seats": 10, "options": {"hand_size": 50}}).json()
    assert error["rule"] == "R3.2"
    # The rules core's own sentence, in Tamil, not a formula ("R3.2 10 × 50 > 100").
    assert t("core.setup.hands_do_not_fit", "ta", count=10, hand_size=50).rstrip(".") in error["message"], error


def test_refusals_over_a_tamil_websocket_are_wholly_tamil(server):
    async def main():
        code = server.create(seats=2, bots={"1": "easy"})["code"]
        ann = await Client.connect(server, code)
        await ann.send(type="join", name="Ann", lang="ta")
        token = (await ann.reply("welcome"))["token"]
        await ann.send(type="start", token=token)
        state = await ann.reply("state")
        frames = {
            json.dumps({"type": "action", "token": token, "version": state["version"], "action": "0: fly",
                        "id": "fly"}): "bad_notation",
            "{oops": "bad_json",
            '{"type": "ping", "id": 1,}': "bad_json",
            json.dumps({"type": "action", "token": token, "version": "7", "action": "0: draw"}): "wrong_type",
            json.dumps({"type": "bot", "token": token, "seat": 1, "level": "x" * 100}): "bad_level",
        }
        for frame, expected in frames.items():
            await ann.send_raw(frame)
            error = await ann.reply("error")
            assert error["code"] == expected, (frame[:60], error)
            assert_tamil(error["message"])
            assert "Expecting" not in error["message"] and "delimiter" not in error["message"]
        await ann.close()

    asyncio.run(main())


def test_the_parsers_own_english_is_never_shown_and_the_place_is_said_in_words(server):
    async def main():
        code = server.create(seats=2)["code"]
        eve = await Client.connect(server, code)
        await eve.send(type="watch", lang="en")
        await eve.reply("welcome")
        await eve.send_raw('{"type": "ping",, "id": 1}')
        error = await eve.reply("error")
        assert error["code"] == "bad_json" and "Expecting" not in error["message"], error
        assert "character 17" in error["message"], error  # where the text stops being JSON, counted from 1
        await eve.close()

    asyncio.run(main())
