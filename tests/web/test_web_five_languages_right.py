"""Issue 22's browser items 1 to 13, each shown wrong on the page before it was fixed.

Most tables here are scripted (helpers.web.ScriptedTable): the rules core deals a seeded
round and the page receives the server's own messages through its websocket, so every
situation (an item, a colour still to choose, an ended round) is reached the same way
each run, and the test waits only for the page's DOM. The lobby, the join page and the
finished games are the real server's.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest

from helpers.web import ScriptedTable
from unokart.i18n import t

SHAPES = set("\u25B2\u25CF\u25A0\u25C6")


def open_scripted(new_page, server, table, lang, size="desktop", seat=0, viewport=None):
    """A page of ``lang`` sat at ``seat`` of the scripted ``table``, its game drawn; nothing moves (reduced motion)."""
    page = new_page(size)
    if viewport:
        page.set_viewport_size(viewport)
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('unokart.lang', '{lang}'); "
                         f"localStorage.setItem('unokart.token.{table.code}', 'scripted') }}")
    table.attach(page, seat)
    page.goto(f"{server.url}/t/{table.code}")
    page.wait_for_selector("#game #hand .card")
    return page


def shown(page, table):
    """Wait until the page shows the table's last version."""
    page.wait_for_function("v => document.querySelector('#game')?.dataset.version === v", arg=str(table.table.version))


def open_page(new_page, server, lang, size="desktop", path="/"):
    page = new_page(size)
    page.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem('unokart.lang', '{lang}')")
    page.goto(server.url + path)
    return page


# ------------------------------------------------------------------ 1. refusals in the page's language

def test_refusals_on_the_lobby_and_join_screens_come_in_the_pages_language(new_page, server):
    bad = "Ann\u202e"
    expected = t("server.error.bad_name_char", "ta", char="U+202E")
    page = open_page(new_page, server, "ta")
    page.fill("#create-form input[name=name]", bad)
    page.click("#create-btn")
    page.wait_for_selector("#error-banner:not(.hidden)")
    assert page.inner_text("#error-banner .error-text") == expected

    code = server.create(seats=3)["code"]
    page.goto(f"{server.url}/t/{code}")
    page.fill("#join-name", bad)
    page.evaluate("() => document.getElementById('error-banner').classList.add('hidden')")
    page.click("#join-btn")
    page.wait_for_selector("#error-banner:not(.hidden)")
    assert page.inner_text("#error-banner .error-text") == expected


# ------------------------------------------------------------------ 2. the item's explanation, whole, on a desktop

ITEM_NOTICE_JS = """() => {
  const fx = document.getElementById("item-fx");
  const box = fx.querySelector(".box").getBoundingClientRect();
  const place = fx.getBoundingClientRect();
  const inside = fx.classList.contains("inline") || (box.top >= place.top - 1 && box.bottom <= place.bottom + 1
    && box.left >= place.left - 1 && box.right <= place.right + 1);
  const cut = [...fx.querySelectorAll(".name, .what")].filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1);
  return { inside, cut: cut.map((n) => n.textContent), onScreen: box.left >= -1 && box.right <= innerWidth + 1, name: fx.querySelector(".name").textContent };
}"""


def item_played(start):
    return lambda game: any(event.get("type") == "item" and event.get("item") for _, event in game.events[start:])


def plays_first(game, legal):
    return next((action for action in legal if " play " in f" {action} "), None)


@pytest.mark.parametrize("players", [4, 7])
def test_an_items_explanation_is_whole_on_a_desktop_table(new_page, server, players):
    table = ScriptedTable(["Ann"] + [f"P{n}" for n in range(1, players)], bots={s: "heuristic" for s in range(1, players)}, seed=5)
    page = open_scripted(new_page, server, table, "ta", viewport={"width": 1280, "height": 800})
    page.evaluate("() => document.fonts.ready")
    seen = 0
    while seen < 3:
        start = len(table.game.events)
        table.advance(item_played(start), choose=plays_first)
        item = next(event["item"] for _, event in table.game.events[start:] if event.get("type") == "item" and event.get("item"))
        shown(page, table)
        page.wait_for_selector("#item-fx")
        notice = page.evaluate(ITEM_NOTICE_JS)
        assert notice["inside"] and notice["cut"] == [] and notice["onScreen"], f"{item}: {notice}"
        assert notice["name"] == t(f"core.item.{item}", "ta")
        page.evaluate("() => document.getElementById('item-fx').remove()")
        seen += 1


# ------------------------------------------------------------------ 3. "How to play" over a table opens at its top

def test_how_to_play_over_a_table_opens_at_its_title(new_page, server):
    table = ScriptedTable(["Ann", "Bea"], seed=3)
    page = open_scripted(new_page, server, table, "en")
    page.click("#rules-link")
    page.wait_for_selector("#rules-dialog[open]")
    state = page.evaluate("""() => {
      const dialog = document.getElementById("rules-dialog"), title = dialog.querySelector("h1");
      const d = dialog.getBoundingClientRect(), r = title.getBoundingClientRect();
      return { scrollTop: dialog.scrollTop, focused: document.activeElement === title, titleInView: r.top >= d.top && r.bottom <= d.bottom,
               itemsInView: dialog.querySelector("#rules-items").getBoundingClientRect().top < d.bottom };
    }""")
    assert state == {"scrollTop": 0, "focused": True, "titleInView": True, "itemsInView": True}, state


# ------------------------------------------------------------------ 4. the error banner: wide enough, under the top bar

@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_error_banner_takes_the_screens_width_and_leaves_the_top_bar_free(new_page, server, size):
    page = open_page(new_page, server, "ta", size)
    page.wait_for_selector("#games-list")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.fill("#create-form input[name=name]", "Ann\u202e")
    page.click("#create-btn")
    page.wait_for_selector("#error-banner:not(.hidden)")
    box = page.evaluate("""() => {
      const b = document.getElementById("error-banner").getBoundingClientRect();
      const bar = document.querySelector("header.topbar").getBoundingClientRect();
      const lines = Math.round(b.height / parseFloat(getComputedStyle(document.querySelector("#error-banner .error-text")).lineHeight || 22));
      return { width: b.width, top: b.top, barBottom: bar.bottom, lines, view: innerWidth };
    }""")
    assert box["width"] >= min(0.85 * box["view"], 500), box
    assert box["top"] >= box["barBottom"], box


# ------------------------------------------------------------------ 5. bots in finished games, as in the live game

@pytest.fixture(scope="module")
def bots_game(server):
    """A finished game of three bots, two of them "good" (heuristic): its id and its record's names."""
    server.create(seats=3, bots={"0": "heuristic", "1": "random", "2": "heuristic"}, options={"hand_size": 3, "target_score": 1}, start=True)
    deadline = time.monotonic() + 60
    while not (games := httpx.get(server.url + "/api/games").json()["games"]):
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    return games[0]


def live_bot_names(lang):
    return [t("web.bot_name", lang, n=seat + 1, level=t(f"web.level.{level}", lang))
            for seat, level in enumerate(["heuristic", "random", "heuristic"])]


@pytest.mark.parametrize("lang", ["ta", "en"])
def test_bots_in_finished_games_are_named_and_numbered_as_at_the_live_table(new_page, server, bots_game, lang):
    assert bots_game["players"][0] == "Bot 0 (good)"  # what the server stores: the seat's index, the English word
    names = live_bot_names(lang)
    page = open_page(new_page, server, lang)
    page.wait_for_selector("#games-list li a")
    won = page.inner_text("#games-list li strong")
    assert won == t("web.lobby.game_won", lang, name=names[bots_game["winner"]]), won
    page.goto(f"{server.url}/#replay/{bots_game['id']}?seat=all&round=1&step=0")
    page.wait_for_selector("#scores .nm")
    assert page.eval_on_selector_all("#scores .nm", "ns => ns.map((n) => n.textContent)") == names


# ------------------------------------------------------------------ 6, 7, 8. directions and isolated names

def test_sindhi_replay_counter_and_view_as_read_right_to_left(new_page, server, bots_game):
    page = open_page(new_page, server, "sd", path=f"/#replay/{bots_game['id']}?seat=all&round=1&step=1")
    page.wait_for_selector("#replay-step")
    assert page.evaluate("() => getComputedStyle(document.getElementById('replay-step')).direction") == "rtl"
    # "{of} مان چال {n}": in a right-to-left line the total reads first (rightmost), the step last (leftmost).
    order = page.evaluate("""() => {
      const node = document.getElementById('replay-step').firstChild, text = node.textContent;
      const x = (k) => { const r = document.createRange(); r.setStart(node, k); r.setEnd(node, k + 1); return r.getBoundingClientRect().left; };
      const word = text.indexOf('\u0686\u0627\u0644');
      return { stepLeftOfWord: x(text.length - 1) < x(word), totalRightOfWord: x(0) > x(word) };
    }""")
    assert order == {"stepLeftOfWord": True, "totalRightOfWord": True}, order
    options = page.eval_on_selector_all("#replay-seat option", "os => os.slice(1).map((o) => o.textContent)")
    assert options and all(text.startswith("\u2068") and "\u2069" in text for text in options), options


def test_sindhi_lobby_keeps_the_round_count_with_its_word(new_page, server, bots_game):
    page = open_page(new_page, server, "sd")
    page.wait_for_selector("#games-list li .sub")
    parts = page.eval_on_selector_all("#games-list li:first-child .sub bdi", "bs => bs.map((b) => b.textContent)")
    assert bots_game["code"] in parts and len(parts) == 3, parts
    # "{n} رائونڊ" is one isolate: its number cannot leave it for the code beside it.
    assert f"{bots_game['rounds']} \u0631\u0627\u0626\u0648\u0646\u068a" in parts, parts


def test_names_are_isolated_in_left_to_right_pages(new_page, server, bots_game):
    page = open_page(new_page, server, "en")
    page.wait_for_selector("#games-list li strong")
    assert page.locator("#games-list li strong bdi").count() >= 1, "the lobby's '{name} won' isolates the name"
    assert page.get_attribute("#create-form input[name=name]", "dir") == "auto"
    code = server.create(seats=3)["code"]
    page.goto(f"{server.url}/t/{code}")
    assert page.get_attribute("#join-name", "dir") == "auto"
    page.goto(f"{server.url}/#replay/{bots_game['id']}?seat=1&round=1&step=0")
    page.wait_for_selector("#hand .card")
    assert page.locator(".hand-tools .me bdi").count() == 1, "the replay's 'Your hand (...)' isolates the name"
    options = page.eval_on_selector_all("#replay-seat option", "os => os.slice(1).map((o) => o.textContent)")
    assert all(text.startswith("\u2068") for text in options), options


# ------------------------------------------------------------------ 9. Tamil phone round summary

WORDS_WHOLE_JS = """(selector) => {
  const broken = [];
  for (const node of document.querySelectorAll(selector)) {
    const text = node.firstChild;
    if (!text || text.nodeType !== 3) continue;
    let at = 0;
    for (const word of text.textContent.split(" ")) {
      const range = document.createRange();
      range.setStart(text, at); range.setEnd(text, at + word.length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  return broken;
}"""


def round_over(game):
    return game.awaiting in ("round_over", "game_over")


def test_tamil_phone_round_summary_keeps_words_whole_and_headers_inside(new_page, server):
    table = ScriptedTable(["Ann", "B", "C"], bots={1: "heuristic", 2: "careful"}, seed=7, options={"hand_size": 3, "target_score": 5000})
    page = open_scripted(new_page, server, table, "ta", "phone")
    table.advance(round_over)
    page.wait_for_selector("#summary-dialog[open] #summary-table")
    assert page.evaluate(WORDS_WHOLE_JS, "#summary-table .nm") == []
    outside = page.evaluate("""() => {
      const table = document.getElementById("summary-table").getBoundingClientRect();
      return [...document.querySelectorAll("#summary-table th")].filter((th) => th.getBoundingClientRect().right > table.right + 1
        || th.getBoundingClientRect().left < table.left - 1 || th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent);
    }""")
    assert outside == []
    assert page.evaluate(WORDS_WHOLE_JS, "#summary-table th") == []


# ------------------------------------------------------------------ 10. Tamil create form

FITS_SELECT_JS = """(select) => {
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(select).font;
  probe.style.whiteSpace = "nowrap";
  probe.textContent = select.selectedOptions[0].textContent;
  document.body.append(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  const style = getComputedStyle(select);
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;  // less the arrow
  return { ok: need <= room, need, room };
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_tamil_create_form_keeps_seat_and_number_together_and_its_choices_whole(new_page, server, size):
    page = open_page(new_page, server, "ta", size)
    page.wait_for_selector("#create-form .seat-row")
    lines = page.eval_on_selector_all("#create-form .seat-row > span", """spans => spans.map((s) => {
      const r = document.createRange(); r.selectNodeContents(s);
      return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; })""")
    assert lines and all(n == 1 for n in lines), lines
    for seat in (1, 2):
        fits = page.eval_on_selector(f"select[name=seat-{seat}]", FITS_SELECT_JS)
        assert fits["ok"], f"seat {seat + 1}'s choice is cut: {fits}"


# ------------------------------------------------------------------ 11. Sindhi log: a card chip's gap

def test_sindhi_log_puts_a_chips_gap_between_it_and_the_cards_name(new_page, server):
    table = ScriptedTable(["Ann", "Bea"], seed=3)
    page = open_scripted(new_page, server, table, "sd")
    # The gap is measured against the part of the name on the chip's line (a name may wrap onto the next).
    gaps = page.eval_on_selector_all("#log .card-ref", """refs => refs.map((ref) => {
      const chip = ref.querySelector(".card-chip").getBoundingClientRect();
      const near = [...ref.querySelector("bdi").getClientRects()].find((r) => Math.abs(r.top + r.height / 2 - (chip.top + chip.height / 2)) < chip.height);
      return near ? Math.round(chip.left - near.right) : null; }).filter((gap) => gap !== null)""")
    assert gaps and all(gap >= 3 for gap in gaps), gaps


# ------------------------------------------------------------------ 12. the scores keep a bot's level; the colour line fits

def test_scores_show_a_bots_whole_name(new_page, server):
    table = ScriptedTable(["Ann", "B", "C"], bots={1: "heuristic", 2: "careful"}, seed=3)
    for lang in ("ta", "en", "kn"):
        page = open_scripted(new_page, server, table, lang)
        cut = page.eval_on_selector_all("#scores .nm", "ns => ns.filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1).map((n) => n.textContent)")
        assert cut == [], f"{lang}: {cut}"
        assert page.evaluate(WORDS_WHOLE_JS, "#scores .nm") == []


def test_colour_to_be_chosen_stays_on_the_table_on_a_phone(new_page, server):
    table = ScriptedTable(["Ann", "B", "C"], bots={1: "heuristic", 2: "easy"}, seed=4)  # the first card is a Wild Item Box
    assert table.game.view(0).to_json()["color"] is None
    page = open_scripted(new_page, server, table, "en", "phone")
    assert page.inner_text("#active-color") == t("web.table.no_color", "en")
    # The table is a stadium (a rectangle with half-round ends, border-radius 999px) inside its 12 px rim.
    outside = page.evaluate("""() => {
      const c = document.querySelector("#game .center").getBoundingClientRect(), rim = 12;
      const r = c.height / 2 - rim, cy = c.top + c.height / 2, left = c.left + c.height / 2, right = c.right - c.height / 2;
      const inside = (x, y) => Math.abs(y - cy) <= r + 0.5 && (x >= left && x <= right || Math.hypot(x - (x < left ? left : right), y - cy) <= r + 0.5);
      const range = document.createRange(); range.selectNodeContents(document.getElementById("active-color"));
      return [...range.getClientRects()].flatMap((b) => [[b.left, b.top], [b.right, b.top], [b.left, b.bottom], [b.right, b.bottom]])
        .filter(([x, y]) => !inside(x, y)).map(([x, y]) => [Math.round(x), Math.round(y)]);
    }""")
    assert outside == [], outside


# ------------------------------------------------------------------ 13. colours by shape or name, never by an English initial

def test_colours_are_marked_by_shape_and_named_in_the_readers_language(new_page, server):
    table = ScriptedTable(["Ann", "B", "C"], bots={1: "heuristic", 2: "easy"}, seed=3)
    page = open_scripted(new_page, server, table, "ta")
    marks = page.eval_on_selector_all(".card .card-letter", "ns => ns.map((n) => n.textContent)")
    assert marks and all(mark in SHAPES for mark in marks), marks
    colour = page.inner_text("#active-color")
    view = table.game.view(0).to_json()
    assert not re.search(r"[A-Za-z]", colour) and t(f"core.color.{view['color']}", "ta") in colour, colour
    assert not re.search(r"\b[RYGBW]\s?[\u25B2\u25CF\u25A0\u25C6]", page.inner_text("#game"))
