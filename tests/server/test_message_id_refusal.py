"""A message's `id` may be text or a whole number: a refused one says both, not "must be text"."""

from __future__ import annotations

import pytest

from unokart.server.protocol import ServerError, parse_message


@pytest.mark.parametrize("raw", ['{"type": "ping", "id": [1]}', '{"type": "ping", "id": 1.5}', '{"type": "ping", "id": {"a": 1}}'])
def test_a_bad_id_is_refused_naming_both_kinds_it_may_be(raw):
    with pytest.raises(ServerError) as refused:
        parse_message(raw)
    assert refused.value.payload("en")["message"] == "The field 'id' must be text or a whole number."


def test_text_and_whole_number_ids_are_taken():
    assert parse_message('{"type": "ping", "id": 7}')[1] == 7
    assert parse_message('{"type": "ping", "id": "seven"}')[1] == "seven"
