"""Reactions and the table's chat in Chromium, at the real server (issue 21, item 5).

Ann (English, desktop) and Bea (Tamil, phone) sit at a table with a bot; Cy (Sindhi)
watches. A reaction and a chat message sent from one page appear on the other seat's
page and on the spectator's; a spectator's reaction reaches the players; markup in a
message stays text; a message with U+202E is refused in its sender's language; a player
muted on one screen is muted there only; a page that comes back gets the history.
"""

from __future__ import annotations

import httpx

from unokart.i18n import t

THUMBS, PARTY = "\U0001F44D", "\U0001F389"


def seated_page(new_page, server, code, token, lang, size):
    page = new_page(size)
    page.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('unokart.lang', '{lang}'); "
                         f"localStorage.setItem('unokart.token.{code}', '{token}') }}")
    page.goto(f"{server.url}/t/{code}")
    return page


def float_over(page, seat, emoji):
    page.wait_for_selector(f'.reaction-float[data-seat="{seat}"][data-emoji="{emoji}"]', state="attached")


def chat_lines(page):
    return page.eval_on_selector_all("#chat-log p", "ps => ps.map((p) => p.querySelector('.chat-words').textContent)")


def test_reactions_and_chat_reach_the_other_seat_and_the_spectator(new_page, server):
    code = server.create(seats=3, bots={"2": "easy"}, options={"target_score": 5000})["code"]
    join = lambda name, seat: httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": name, "seat": seat}).json()["token"]
    ann_token, bea_token = join("Ann", 0), join("\u0639\u0644\u064a!", 1)
    ann = seated_page(new_page, server, code, ann_token, "en", "desktop")
    bea = seated_page(new_page, server, code, bea_token, "ta", "phone")
    ann.wait_for_selector("#start-btn:not([disabled])")
    ann.click("#start-btn")
    watcher = new_page("phone")
    watcher.add_init_script("if (location.protocol === 'http:') localStorage.setItem('unokart.lang', 'sd')")
    watcher.goto(f"{server.url}/t/{code}#watch")
    for page in (ann, bea, watcher):
        page.wait_for_selector("#game #chat .react-btn")
    assert watcher.locator("#chat-input").count() == 0 and watcher.locator("#chat-spectator").count() == 1

    # A reaction floats over its sender's seat on every page; a spectator's over the table's middle.
    ann.click(f'#chat .react-btn[data-emoji="{THUMBS}"]')
    for page in (ann, bea, watcher):
        float_over(page, 0, THUMBS)
    watcher.click(f'#chat .react-btn[data-emoji="{PARTY}"]')
    for page in (ann, bea):
        float_over(page, "spectator", PARTY)

    # A message is text, isolated, on the other seat's page and the spectator's.
    message = "Nice <b>shell</b> & 7!"
    ann.fill("#chat-input", message)
    ann.click("#chat-send")
    for page in (bea, watcher, ann):
        page.wait_for_function("text => [...document.querySelectorAll('#chat-log .chat-text')].some((b) => b.textContent === text)", arg=message)
        assert page.locator("#chat-log b").count() == 0, "markup in a message is inert"
        assert page.eval_on_selector("#chat-log p:last-child .chat-text", "b => b.tagName") == "BDI"
        assert page.eval_on_selector("#chat-log p:last-child .chat-name", "b => b.tagName + ':' + b.textContent") == "BDI:Ann"

    # A message with U+202E is refused in the sender's language (Tamil), and nobody gets it.
    bea.fill("#chat-input", "hi\u202e")
    bea.click("#chat-send")
    bea.wait_for_selector("#error-banner:not(.hidden)")
    assert bea.inner_text("#error-banner .error-text") == t("server.error.bad_text_char", "ta", char="U+202E")
    bea.fill("#chat-input", "\u0645\u0631\u062d\u0628\u0627 2")
    bea.click("#chat-send")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-text').length === 2")
    assert all("\u202e" not in line for line in chat_lines(ann) + chat_lines(watcher))

    # Ann mutes Bea on her own screen: Bea's words leave Ann's page only; unmuting brings them back.
    ann.click('#chat-log p[data-seat="1"] .mute-btn')
    ann.wait_for_selector("#chat-muted")
    assert [line for line in chat_lines(ann) if "\u0645\u0631\u062d\u0628\u0627" in line] == []
    bea.fill("#chat-input", "again")
    bea.click("#chat-send")
    watcher.wait_for_function("() => [...document.querySelectorAll('#chat-log .chat-text')].some((b) => b.textContent === 'again')")
    assert not any("again" in line for line in chat_lines(ann))
    ann.reload()  # a mute is kept for the table: a reload still hides Bea
    ann.wait_for_selector("#chat-muted [data-unmute='1']")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-text').length === 1")  # the history: her own words alone
    assert not any("again" in line for line in chat_lines(ann))
    ann.click("#chat-muted [data-unmute='1']")
    ann.wait_for_function("() => [...document.querySelectorAll('#chat-log .chat-text')].some((b) => b.textContent === 'again')")

    # A page that comes back gets the table's history.
    bea.reload()
    bea.wait_for_function("n => document.querySelectorAll('#chat-log .chat-text').length === n", arg=3)
    assert server.errors_logged() == ""
