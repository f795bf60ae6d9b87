"""A bot level has one spelling per meaning (issue 26, item 6): a budget is ASCII digits without leading zeros.
`ismcts:٥٠٠`, `ismcts:５００` and `ismcts:0000500` were accepted and stored as typed (a bot named
"Bot 0 (strong:٥٠٠)")."""

from __future__ import annotations

import pytest

from unokart.server import protocol
from unokart.server.protocol import ServerError


@pytest.mark.parametrize("level", ["ismcts:٥٠٠", "ismcts:５００", "ismcts:0000000000000000000000500", "ismcts:0500",
                                   "ismcts:00", "ismcts:007ms", "ismcts:१०", "ismcts:+5", "ismcts:5_0"])
def test_a_budget_in_other_digits_or_with_leading_zeros_is_refused(level):
    with pytest.raises(ServerError) as refused:
        protocol.bot_level(level)
    assert refused.value.code == "bad_level"


@pytest.mark.parametrize("level, stored", [("ismcts:500", "ismcts:500"), ("ismcts:0", "ismcts:0"),
                                           ("ismcts:20ms", "ismcts:20ms"), (" ISMCTS:10 ", "ismcts:10"),
                                           ("careful", "careful"), ("Careful", "careful")])
def test_the_canonical_spelling_is_accepted_and_stored_as_one_form(level, stored):
    assert protocol.bot_level(level) == stored
