"""The lobby in Chromium offers the ladder of levels (unokart.levels.LADDER), weakest first, each named in the
reader's language; a table made with the strongest level seats it."""

from __future__ import annotations

import pytest

from unokart.i18n import LANGUAGES, t
from unokart.levels import LADDER, level_name


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_lobby_offers_every_level_by_its_name(lang, server, new_page):
    page = new_page("desktop")
    page.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem('unokart.lang', '{lang}')")
    page.goto(server.url + "/")
    page.wait_for_selector("select[name=seat-1]")
    options = page.eval_on_selector_all("select[name=seat-1] option",
                                        "options => options.map(o => [o.value, o.textContent])")
    offered = [(value, text) for value, text in options if value != "open"]
    assert offered == [(level, t("web.lobby.bot_level", lang, level=level_name(level, lang))) for level in LADDER]


def test_a_table_made_in_the_lobby_seats_the_trained_policy(server, new_page):
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.fill("#create-form input[name=name]", "Ann")
    page.select_option("select[name=seats]", "2")
    page.select_option("select[name=seat-1]", "policy:trained")
    page.click("#create-btn")
    page.wait_for_selector("#waiting-room")
    page.wait_for_selector(f"text={t('web.lobby.bot_level', 'en', level=level_name('policy:trained', 'en'))}")
