"""An opponent's UNO flag ends the line of their name: it never lies over the name, in either direction."""

from __future__ import annotations

import pytest

from helpers.web import SIZES

RENDER_JS = """async ([rtl, name]) => {
  const { renderOpponents } = await import('/static/js/board.js');
  document.documentElement.dir = rtl ? 'rtl' : 'ltr';
  const view = { players: ['Ann', name, 'Cy'], hands: [['R1'], 1, 4], scores: [0, 0, 0], to_act: 0, dealer: 1,
                 uno_said: [false, true, false], hand: [], seat: 0 };
  const game = document.createElement('div'); game.id = 'game';
  game.append(renderOpponents(view, [1, 2], { me: 0 }));
  document.body.replaceChildren(game);
  const box = (node) => node.getBoundingClientRect();
  const opp = document.querySelector('.opp[data-seat="1"]');
  const flag = opp.querySelector('.uno-flag'), nm = opp.querySelector('.nm');
  const [f, n, o] = [box(flag), box(nm), box(opp)];
  return { flag: !!flag, inName: flag.parentElement.classList.contains('name'),
           apart: f.left >= n.right - 1 || f.right <= n.left + 1, inside: f.left >= o.left && f.right <= o.right };
}"""


@pytest.mark.parametrize("rtl", [False, True])
@pytest.mark.parametrize("name", ["Bot 2 (good)", "Maximilian Alexander Lo"])
def test_the_uno_flag_never_covers_the_name(server, new_page, rtl, name):
    page = new_page("phone")
    page.set_viewport_size(SIZES["phone"])
    page.goto(server.url)
    # The page's own start (its catalogue fetched, then the lobby drawn) may finish after "load": it must be
    # over before the body is replaced, or it finds no #lang-select ("Cannot read properties of null").
    page.wait_for_selector("#lobby")
    found = page.evaluate(RENDER_JS, [rtl, name])
    assert found == {"flag": True, "inName": True, "apart": True, "inside": True}, found
