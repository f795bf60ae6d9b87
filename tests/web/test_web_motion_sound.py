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
// Each winner's banner shown while a round's summary is open: whether it is seen, above the dialog.
window.__overSummary = [];
new MutationObserver(() => {
  const banner = document.getElementById("announce"), words = banner?.querySelector(".words");
  if (!words || !banner.classList.contains("show") || !document.getElementById("summary-dialog").open || banner.__checked === words) return;
  banner.__checked = words;
  const r = words.getBoundingClientRect();
  banner.style.pointerEvents = words.style.pointerEvents = "auto";  // a hit test: what is drawn on top there (it takes no clicks)
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  banner.style.pointerEvents = words.style.pointerEvents = "";
  window.__overSummary.push({ what: banner.dataset.what, seen: Boolean(hit && banner.contains(hit)) });
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "open"] });
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


# Clicked inside the page, where the button found is the button clicked: a locator found and then clicked
# could outlive its button (the server answering an earlier click removes it) and wait for one that never comes.
ANSWER_JS = """sel => {
  const button = document.querySelector(sel);
  if (!button) return null;
  button.click();
  return document.querySelector('#game').dataset.version;
}"""


def answer(page, selector: str) -> bool:
    """Answers the decision `selector` finds, if the page shows one, and waits until the table moves on."""
    version = page.evaluate(ANSWER_JS, selector)
    if version is None:
        return False
    page.wait_for_function("v => document.querySelector('#game')?.dataset.version !== v", arg=version)
    return True


def step(page, uno: bool = False) -> None:
    """One move of the seat's if it has one: a card (or a draw), or another decision; a round's summary is closed."""
    if page.locator("#summary-dialog[open]").count():
        page.click("#summary-close")
    if page.locator("#game[data-mine='true'][data-awaiting='play']").count():
        play_a_card(page, uno=uno)
    else:
        answer(page, OTHER_DECISION)
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
        answer(page, OTHER_DECISION)  # another decision (a colour, a target, a Wild Draw Four to accept)
        page.wait_for_timeout(50)


def draw_one(page) -> str:
    """Draws a card on the seat's turn; returns the version the draw made."""
    my_play_turn(page)
    before = page.locator("#hand .card").count()
    page.click("#stock")
    page.wait_for_function("n => document.querySelectorAll('#hand .card').length === n + 1", arg=before)
    return page.get_attribute("#game", "data-version")


# A raised card (a plain one first) played inside the page, UNO said with it if asked: the card found is the card
# clicked (a card found, then clicked by a locator, could have left the hand meanwhile). Returns its code.
PLAY_JS = """([uno, raisedSelector]) => {
  const raised = [...document.querySelectorAll(raisedSelector)];
  const card = raised.find((c) => !c.classList.contains('card-W')) ?? raised[0];
  if (!card) return null;
  if (uno) document.querySelector("#uno-btn[aria-pressed='false']")?.click();
  card.click();
  return card.dataset.code;
}"""


def play_a_card(page, uno: bool = False, item_box: bool = True) -> str | None:
    """Plays a raised card on the seat's turn (drawing and keeping until one is raised); returns its code (None: the round ended first).
    Without ``item_box``, a Wild Item Box is not played (R4.3: one may draw instead): the pile's top is then the card played,
    not the card the Item Box turns."""
    raised = "#hand .card.playable" if item_box else "#hand .card.playable:not([data-code='WIB'])"
    deadline = time.monotonic() + DEADLINE_S
    while True:
        assert time.monotonic() < deadline, "no card could be played"
        my_play_turn(page)
        if page.locator(raised).count():
            break
        if answer(page, "#game[data-mine='true'][data-awaiting='play'] #stock:not(:disabled)"):  # nothing raised: a draw
            answer(page, "#game[data-mine='true'] #decision [data-verb='pass']")  # a drawn card that could be played is kept
    code = page.evaluate(PLAY_JS, [uno, raised])
    if code is None:  # the state moved on since (the bot went out: a new deal, the summary)
        return None
    answer(page, "#decision [data-color]")  # a Wild Draw Four's colour, chosen with it
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


# Where "+N" stands: inside the screen, and at the right end of the hand's cards (not of the hand's wider box).
PLUS_N_JS = """() => {
  const badge = document.querySelector(".plus-n[data-seat='0']").getBoundingClientRect();
  const right = Math.max(...[...document.querySelectorAll('#hand .card')].map((card) => card.getBoundingClientRect().right));
  return { inside: badge.left >= 0 && badge.right <= document.documentElement.clientWidth,
           beside: Math.abs(badge.left - right) < 24, badge: [badge.left, badge.right], cards_end: right };
}"""


def test_a_drawn_card_and_a_played_card_animate(browser, server):
    page, errors = open_seat(browser, server, slow=True, init=RECORD_ANIMATIONS)
    page.click("#start-btn")
    draw_one(page)
    newest = "() => [...document.querySelectorAll('#hand .card')].find((c) => c.getAnimations().some((a) => a.playState === 'running'))"
    page.wait_for_function(newest)
    assert page.locator(".plus-n[data-seat='0']", has_text="+1").count(), "the hand that grew says by how much"
    badge = page.evaluate(PLUS_N_JS)
    assert badge["inside"] and badge["beside"], f"the +1 is not beside the hand's cards, inside the screen: {badge}"

    answer(page, "#game[data-mine='true'] #decision [data-verb='pass']")
    while not (code := play_a_card(page, item_box=False)):
        pass
    try:
        page.wait_for_function("code => window.__animated.some((a) => a.id === 'top-card' && a.code === code)", arg=code)
    except PlaywrightTimeout:
        raise AssertionError(f"{code} never flew to the pile: animated {page.evaluate('window.__animated.slice(-8)')}, top "
                             f"{page.get_attribute('#top-card', 'data-code')}, banner {page.inner_text('#error-banner')!r}") from None
    page.context.close()
    assert errors == []


# An item's notice shown, then the table moved under it with no new state (as when a script's font arrives
# and the opponents' names wrap again): returns where the notice is two frames later and what it covers. Its
# controls are disabled first, so that the notice is placed over the table, not under the prompt.
NOTICE_AFTER_SHIFT_JS = """async () => {
  const { showItemNotice } = await import('/static/js/motion.js');
  const screen = document.getElementById('table-screen');
  screen.querySelectorAll('button, select, input').forEach((node) => { node.disabled = true; });  // the whole table free
  showItemNotice(screen, { item: 'mushroom', card: 'G5', event: { type: 'item', seat: 1, item: 'mushroom', card: 'G5' } }, ['Mo', 'Bot'], 0);
  const fx = document.getElementById('item-fx');
  const over = () => ['#game .center', '#game .opponents', '#game .side .log'].find((selector) => {
    const spot = document.querySelector(selector)?.getBoundingClientRect(), place = fx.getBoundingClientRect();
    return spot && ['left', 'top', 'width', 'height'].every((side) => Math.abs(spot[side] - place[side]) < 1);
  }) ?? null;
  const placed = over();
  document.querySelector('#game').prepend(Object.assign(document.createElement('div'), { style: 'height: 160px' }));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const place = fx.getBoundingClientRect();
  const covered = [...document.querySelectorAll('#game button:not(:disabled), #game select, #game a[href]')]
    .filter((node) => { const r = node.getBoundingClientRect();
      return r.width && r.height && r.left < place.right && place.left < r.right && r.top < place.bottom && place.top < r.bottom; })
    .map((node) => node.id || node.className);
  return { placed, now: fx.classList.contains('inline') ? 'inline' : over(), covered };
}"""


def test_an_item_notice_follows_the_table_when_it_moves_with_no_new_state(browser, server):
    page, errors = open_seat(browser, server)
    page.click("#start-btn")
    page.wait_for_selector("#game")
    where = page.evaluate(NOTICE_AFTER_SHIFT_JS)
    assert where["placed"], f"the notice was first placed over a part of the table: {where}"
    assert where["now"] is not None, f"the notice stayed where its part of the table was: {where}"
    assert where["covered"] == [], f"the notice covers {where['covered']}"
    page.context.close()
    assert errors == []


# An item's notice whose words, padding included, are 2 px shorter than its place: with its 3 px border the box
# is 4 px taller than the place, so the notice must go elsewhere. Returns whether the box is whole where it is.
NOTICE_BORDER_JS = """async () => {
  const { showItemNotice, placeNotice } = await import('/static/js/motion.js');
  const screen = document.getElementById('table-screen');
  screen.querySelectorAll('button, select, input').forEach((node) => { node.disabled = true; });
  showItemNotice(screen, { item: 'mushroom', card: 'G5', event: { type: 'item', seat: 1, item: 'mushroom', card: 'G5' } }, ['Mo', 'Bot'], 0);
  const fx = document.getElementById('item-fx'), box = fx.querySelector('.box'), what = fx.querySelector('.what');
  if (fx.classList.contains('inline')) return { spot: null };
  const spot = fx.dataset.spot;
  what.style.minHeight = `${what.offsetHeight + fx.clientHeight - 2 - box.scrollHeight}px`;
  placeNotice(screen);
  const place = fx.getBoundingClientRect(), r = box.getBoundingClientRect();
  return { spot, now: fx.classList.contains('inline') ? 'inline' : fx.dataset.spot,
           whole: fx.classList.contains('inline') || (r.top >= place.top - 0.5 && r.bottom <= place.bottom + 0.5) };
}"""


def test_an_item_notice_is_never_placed_where_its_border_would_be_cut(browser, server):
    page, errors = open_seat(browser, server, reduced=True)
    page.click("#start-btn")
    page.wait_for_selector("#game")
    shown = page.evaluate(NOTICE_BORDER_JS)
    assert shown["spot"], f"the notice was first placed over a part of the table: {shown}"
    assert shown["whole"], f"the notice's box is cut at its foot: {shown}"
    assert shown["now"] != shown["spot"], f"the notice stayed in a place 4 px too short: {shown}"
    page.context.close()
    assert errors == []


# An item's notice over the table and an announcement at once (a Green Shell's victim calling UNO): where each is.
NOTICE_AND_BANNER_JS = """async () => {
  const { showItemNotice } = await import('/static/js/motion.js');
  const { announce } = await import('/static/js/announce.js');
  const screen = document.getElementById('table-screen');
  screen.querySelectorAll('button, select, input').forEach((node) => { node.disabled = true; });
  showItemNotice(screen, { item: 'green_shell', card: 'G5', event: { type: 'item', seat: 1, item: 'green_shell', card: 'G5' } }, ['Mo', 'Bot'], 0);
  announce({ what: 'uno', seat: 1 }, ['Mo', 'Bot']);
  const rect = (node) => { const r = node.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  return { inline: document.getElementById('item-fx').classList.contains('inline'),
           notice: rect(document.querySelector('#item-fx .box')), banner: rect(document.querySelector('#announce .words')) };
}"""


def test_an_announcement_during_an_item_notice_stands_clear_of_it(browser, server):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page, errors = open_seat(browser, server, viewport=viewport, reduced=True)
        page.click("#start-btn")
        page.wait_for_selector("#game")
        shown = page.evaluate(NOTICE_AND_BANNER_JS)
        notice, banner = shown["notice"], shown["banner"]
        assert not shown["inline"], f"the notice went over the table: {shown}"
        assert banner["bottom"] <= notice["top"] or banner["top"] >= notice["bottom"], f"{viewport}: the banner covers the notice: {shown}"
        assert 0 <= banner["top"] and banner["bottom"] <= viewport["height"], f"{viewport}: the banner is out of sight: {shown}"
        page.context.close()
        assert errors == []


# Every "+N" the page shows, as it is added (one standing still goes after 1.5 s of the page's clock, which a
# loaded machine may spend before the test looks), and every card the pile's top shows.
BADGE_SPY = """new MutationObserver((changes) => {
  window.__badges ??= [];
  for (const change of changes) for (const node of change.addedNodes)
    if (node.classList?.contains('plus-n')) window.__badges.push({ seat: node.dataset.seat, text: node.textContent });
}).observe(document, { childList: true, subtree: true });
window.__badges = [];
// Every card the pile's top shows, in turn.
window.__tops = [];
new MutationObserver(() => {
  const top = document.getElementById('top-card')?.dataset.code;
  if (top && top !== window.__tops[window.__tops.length - 1]) window.__tops.push(top);
}).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-code'] });"""


def test_under_reduced_motion_nothing_moves_and_the_same_is_shown(browser, server):
    page, errors = open_seat(browser, server, viewport={"width": 390, "height": 844}, reduced=True, slow=True, init=BADGE_SPY)
    page.click("#start-btn")
    draw_one(page)
    assert page.evaluate("() => document.getAnimations().length") == 0, "a drawn card moved"
    assert {"seat": "0", "text": "+1"} in page.evaluate("() => window.__badges"), "the hand that grew still says by how much"
    assert "Mo draws 1" in page.inner_text("#log")
    answer(page, "#game[data-mine='true'] #decision [data-verb='pass']")
    while not (code := play_a_card(page, item_box=False)):
        pass
    page.wait_for_function("code => window.__tops.includes(code)", arg=code)  # on the pile (the bot may play on at once)
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
    shown = page.evaluate("() => window.__overSummary")
    assert {"what": "round", "seen": True} in shown and all(b["seen"] for b in shown), f"a banner behind the round's summary: {shown}"

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
