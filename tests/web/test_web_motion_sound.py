"""Motion, sound and announcements in Chromium (issue 21): a real server, a seat against a bot.

- a drawn card and a played card animate (a running animation on the card's element), and "+1" shows;
- with prefers-reduced-motion nothing animates, and the same "+1" and log line show;
- no audio context exists before the first gesture; after a first click, a card played schedules a
  sound (AudioContext is wrapped by an init script to count the sources started), and none while muted;
  the mute is remembered;
- UNO said with a card and the round's winner get a banner, with the same words in the aria-live region.

Where a running animation is looked for, the page's animations are slowed ten times (the DevTools
protocol's Animation.setPlaybackRate), so it is seen on a loaded machine too; no test waits on the wall
clock for an animation.
"""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from helpers.server import serve_for_module

DEADLINE_S = 90

# Counts the audio contexts made and the sound sources started (oscillators and noise buffers).
AUDIO_SPY = """
window.__audio = { contexts: 0, started: 0 };
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
  createOscillator() { return spy(super.createOscillator()); }
  createBufferSource() { return spy(super.createBufferSource()); }
};
function spy(source) {
  const start = source.start.bind(source);
  source.start = (...args) => { window.__audio.started += 1; return start(...args); };
  return source;
}
"""

# Records the words of every banner shown (a banner lasts a second: the test may look later).
BANNER_SPY = """
window.__banners = [];
new MutationObserver(() => {
  const banner = document.getElementById("announce");
  const text = banner && banner.classList.contains("show") ? banner.textContent : null;
  if (text && text !== window.__banners[window.__banners.length - 1]) window.__banners.push(text);
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Bots wait half a second, so the card the seat played is still the pile's top when it is looked at."""
    yield from serve_for_module(tmp_path_factory.mktemp("motion") / "unokart.sqlite", bot_delay=0.5)


def open_seat(browser, server, *, hand_size=7, viewport=None, reduced=False, init=None, slow=False):
    created = server.create(seats=2, bots={"1": "easy"}, options={"hand_size": hand_size, "target_score": 5000})
    token = httpx.post(f"{server.url}/api/tables/{created['code']}/join", json={"name": "Mo", "seat": 0}).json()["token"]
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, reduced_motion="reduce" if reduced else "no-preference")
    context.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem('unokart.token.{created['code']}', '{token}')")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    if slow:  # a running animation lasts ten times longer: seen on a loaded machine too
        cdp = context.new_cdp_session(page)
        cdp.send("Animation.enable")
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
    page.goto(f"{server.url}/t/{created['code']}")
    page.wait_for_selector("#start-btn:not([disabled])")
    return page, errors


OTHER_DECISION = "#game[data-mine='true'] #decision :is([data-color], [data-target], [data-verb='accept'], [data-verb='pass'])"


def step(page, uno: bool = False) -> None:
    """One move of the seat's if it has one: a card (or a draw), or another decision; a round's summary is closed."""
    if page.locator("#summary-dialog[open]").count():
        page.click("#summary-close")
    if page.locator("#game[data-mine='true'][data-awaiting='play']").count():
        play_a_card(page, uno=uno)
    elif page.locator(OTHER_DECISION).count():
        page.locator(OTHER_DECISION).first.click()
    page.wait_for_timeout(50)


def my_play_turn(page) -> None:
    """Waits until the seat must play (the bot's turns pass; a round that ended is closed)."""
    deadline = time.monotonic() + DEADLINE_S
    while not page.locator("#game[data-mine='true'][data-awaiting='play']").count():
        if time.monotonic() > deadline:
            page.screenshot(path="/tmp/motion-fail.png")
            shown = page.evaluate("() => document.querySelector('#table-screen')?.outerHTML.slice(0, 400)")
            raise AssertionError(f"the seat never had a turn to play: {shown}")
        if page.locator("#summary-dialog[open]").count():
            page.click("#summary-close")
        other = page.locator(OTHER_DECISION)
        if other.count():  # another decision (a colour, a target, a Wild Draw Four to accept): answered
            other.first.click()
        page.wait_for_timeout(50)


def draw_one(page) -> str:
    """Draws a card on the seat's turn; returns the version the draw made."""
    my_play_turn(page)
    before = page.locator("#hand .card").count()
    page.click("#stock")
    page.wait_for_function("n => document.querySelectorAll('#hand .card').length === n + 1", arg=before)
    return page.get_attribute("#game", "data-version")


def play_a_card(page, uno: bool = False) -> str | None:
    """Plays a raised card on the seat's turn (drawing and keeping until one is raised); returns its code (None: the round ended first)."""
    deadline = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < deadline, "no card could be played"
        my_play_turn(page)
        playable = page.locator("#hand .card.playable")
        if playable.count():
            break
        version = page.get_attribute("#game", "data-version")
        page.click("#stock")
        page.wait_for_function("v => document.querySelector('#game').dataset.version !== v", arg=version)
        keep = page.locator("#game[data-mine='true'] #decision [data-verb='pass']")
        if keep.count():  # a drawn card that could be played is kept: the next turn plays from the hand
            keep.click()
            page.wait_for_selector("#game[data-mine='true'][data-awaiting='drawn']", state="detached")
    if uno and page.locator("#uno-btn[aria-pressed='false']").count():
        page.click("#uno-btn")
    plain = page.locator("#hand .card.playable:not(.card-W)")
    card = plain.first if plain.count() else playable.first
    code = card.get_attribute("data-code")
    try:
        card.click(position={"x": 10, "y": 40}, timeout=15000)  # a card still arriving (slowed ten times) is not clicked yet
    except PlaywrightTimeout:
        # The bot went out meanwhile: the round's summary covers the hand. Any other reason fails the test.
        assert page.locator("#summary-dialog[open]").count(), "a raised card could not be clicked"
        return None
    if page.locator("#decision [data-color]").count():  # a Wild Draw Four's colour, chosen with it
        page.locator("#decision [data-color]").first.click()
    return code


# Every animation the page starts, with the element it moves (id and card code): a bot that plays on at once
# (a loaded machine answers the page late) may replace the pile's top before its animation is looked at.
RECORD_ANIMATIONS = """(() => {
  const animate = Element.prototype.animate;
  window.__animated = [];
  Element.prototype.animate = function (...args) {
    window.__animated.push({ id: this.id, code: this.dataset ? this.dataset.code : undefined });
    return animate.apply(this, args);
  };
})();"""


def test_a_drawn_card_and_a_played_card_animate(browser, server):
    page, errors = open_seat(browser, server, slow=True, init=RECORD_ANIMATIONS)
    page.click("#start-btn")
    draw_one(page)
    newest = "() => [...document.querySelectorAll('#hand .card')].find((c) => c.getAnimations().some((a) => a.playState === 'running'))"
    page.wait_for_function(newest)
    assert page.locator(".plus-n[data-seat='0']", has_text="+1").count(), "the hand that grew says by how much"

    if page.locator("#decision [data-verb='pass']").count():
        page.click("#decision [data-verb='pass']")
    while not (code := play_a_card(page)):
        pass
    try:
        page.wait_for_function("code => window.__animated.some((a) => a.id === 'top-card' && a.code === code)", arg=code)
    except PlaywrightTimeout:
        raise AssertionError(f"{code} never flew to the pile: animated {page.evaluate('window.__animated.slice(-8)')}, top "
                             f"{page.get_attribute('#top-card', 'data-code')}, banner {page.inner_text('#error-banner')!r}") from None
    page.context.close()
    assert errors == []


def test_under_reduced_motion_nothing_moves_and_the_same_is_shown(browser, server):
    page, errors = open_seat(browser, server, viewport={"width": 390, "height": 844}, reduced=True, slow=True)
    page.click("#start-btn")
    draw_one(page)
    assert page.evaluate("() => document.getAnimations().length") == 0, "a drawn card moved"
    assert page.locator(".plus-n[data-seat='0']", has_text="+1").count(), "the hand that grew still says by how much"
    assert "Mo draws 1" in page.inner_text("#log")
    if page.locator("#decision [data-verb='pass']").count():
        page.click("#decision [data-verb='pass']")
    while not (code := play_a_card(page)):
        pass
    page.wait_for_selector(f"#top-card[data-code='{code}']")
    assert page.evaluate("() => document.getAnimations().map((a) => a.effect?.target?.className || a.animationName)") == []
    page.context.close()
    assert errors == []


def test_sound_waits_for_a_gesture_stops_when_muted_and_winners_are_announced_in_sindhi(browser, server):
    page, errors = open_seat(browser, server, hand_size=2, init=AUDIO_SPY + BANNER_SPY + "localStorage.setItem('unokart.lang', 'sd');")
    words = httpx.get(f"{server.url}/api/i18n/sd").json()
    page.wait_for_selector("#sound-btn")
    assert page.evaluate("() => window.__audio.contexts") == 0, "no audio before the player's first gesture"
    page.click("#start-btn")
    my_play_turn(page)
    started = page.evaluate("() => window.__audio.started")
    play_a_card(page, uno=True)  # with two cards in hand, UNO is armed and said with the card
    page.wait_for_function("n => window.__audio.started > n", arg=started)
    assert page.evaluate("() => window.__audio.contexts") == 1

    # Every announcement (UNO!, a catch, the round's winner) is a banner and the same words in the aria-live region.
    # Rounds of two cards are played until someone said UNO (the seat or the bot) and a round was won.
    won = words["web.announce.round"].replace("{name}", "")
    deadline = time.monotonic() + 2 * DEADLINE_S
    while True:
        banners = page.evaluate("() => window.__banners")
        if any(b.endswith(": UNO!") for b in banners) and any(won in b for b in banners) and page.locator("#announce.show").count():
            break
        if time.monotonic() > deadline:
            page.screenshot(path="/tmp/motion-fail.png")
            raise AssertionError(f"no UNO and round winner announced: {banners} {page.inner_text('#log')[-600:]}")
        step(page, uno=True)
    assert page.inner_text("#announce-live") == page.inner_text("#announce"), "the banner's words go to the aria-live region"
    assert page.evaluate("() => getComputedStyle(document.querySelector('#announce .words')).direction") == "rtl"

    if page.locator("#summary-dialog[open]").count():
        page.click("#summary-close")
    page.click("#sound-btn")
    page.check("#sound-mute")
    page.click("#log")  # closes the sound menu
    quiet = page.evaluate("() => window.__audio.started")
    version = int(page.get_attribute("#game", "data-version"))
    deadline = time.monotonic() + DEADLINE_S
    while int(page.get_attribute("#game", "data-version")) < version + 3:  # the next round's moves, muted
        assert time.monotonic() < deadline, "the game did not go on"
        step(page)
    assert page.evaluate("() => window.__audio.started") == quiet, "a sound played while muted"
    page.reload()
    page.wait_for_selector("#game")
    page.click("#sound-btn")
    assert page.is_checked("#sound-mute"), "the mute is remembered"
    page.context.close()
    assert errors == []
