"""Each message kind the protocol parses has exactly one place that answers it, named in a table, not built from
a string (a kind added to the protocol without a handler fails here, not as an internal error in play)."""

from unokart.server import protocol
from unokart.server.tables import TableService

ANSWERED_BEFORE_A_SEAT = frozenset(("ping", "sync")) | protocol.HELLOS | protocol.TALK


def test_every_parsed_kind_has_one_handler():
    seated = frozenset(TableService.SEATED)
    assert not seated & ANSWERED_BEFORE_A_SEAT
    assert seated | ANSWERED_BEFORE_A_SEAT == frozenset(protocol.MESSAGES)


def test_the_seated_handlers_are_the_services_own_methods():
    for kind, handler in TableService.SEATED.items():
        assert getattr(TableService, handler.__name__) is handler, kind
