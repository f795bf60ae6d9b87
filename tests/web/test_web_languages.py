"""One table seen in all five languages at three sizes, on a machine without fonts (issue 14).

A player with a long Latin name sits with two bots, fifteen cards each; the same seat
is open in fifteen pages (five languages times a phone, a tablet and a laptop), in
Chromium whose fontconfig lists no font at all. The test plays the seat from one of
them and, in every page:

- at the first turn: no two parts of the table overlap (bounding boxes), no text is
  clipped, the page is no wider than the screen, every card of the hand can be seen
  and clicked, and no English is left outside names and codes; in Sindhi the card
  faces and the logo read left to right and the Latin name keeps its own direction;
- the colour picker of a Wild Draw Four (drawn for if the deal gave none);
- the round summary;
and, while playing, that the item animation never covers anything one can click.
A reloaded page still shows the first round's log in the second round.
Screenshots go to artifacts/screenshots/i18n/<lang>_<size>_<screen>.png.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest

from helpers.web import SIZES
from helpers.server import serve_for_module
from test_web_whole_round import send_and_wait, take_turn

LANGS = ("en", "ta", "kn", "te", "sd")
LONG_NAME = "Maximilian Alexander Lo"  # Latin, 23 characters: cut at its end, in every direction
DEADLINE_S = 480  # a shared 2-core machine, with the other test worker busy beside it
# An ended round stays on the table this long: pages woken after the round ended still open its summary.
ROUND_PAUSE_S = 45

OVERLAPS_JS = """() => {
  window.scrollTo(0, 0);
  const boxes = (selectors) => selectors.flatMap((sel) => [...document.querySelectorAll(sel)].map((node, i) => {
    const r = node.getBoundingClientRect();
    return { name: `${sel}#${i}`, left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY };
  })).filter((b) => b.right - b.left > 0 && b.bottom - b.top > 0);
  const groups = [
    ["header.topbar", "#game .opp", "#game .center", "#prompt", "#decision:not(:empty)", ".hand-tools", ".uno-wrap", "#hand", "#scores", "#log"],
    ["#direction", ".stock-wrap", ".pile-wrap"],
  ];
  for (const opp of document.querySelectorAll("#game .opp")) {
    groups.push([...opp.children].map((child, i) => `#game .opp[data-seat="${opp.dataset.seat}"] > :nth-child(${i + 1})`));
  }
  const found = [];
  for (const group of groups) {
    const list = boxes(group);
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
      const a = list[i], b = list[j];
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`${a.name} / ${b.name}`);
    }
  }
  const clipped = [...document.querySelectorAll("#game .opp .line, #prompt, #decision button, .hand-tools, .stock-count, #direction, .active-color, #scores td, #scores th")]
    .filter((node) => node.scrollWidth > node.clientWidth + 1 && !node.querySelector(".nm"))
    .map((node) => node.textContent.slice(0, 40));
  const wide = document.documentElement.scrollWidth > innerWidth + 1
    ? [...document.querySelectorAll("body *")].filter((node) => node.getBoundingClientRect().right > innerWidth + 1 && !node.closest("dialog:not([open])"))
        .map((node) => `${node.tagName}.${node.className} ${(node.textContent || "").slice(0, 30)}`).slice(-5)
    : [];
  return { overlaps: found, clipped, wide };
}"""

HAND_JS = """() => {
  const bad = [];
  const cards = [...document.querySelectorAll("#hand .card")];
  for (const [i, card] of cards.entries()) {
    card.scrollIntoView({ block: "center" });
    const r = card.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 10, r.top + r.height / 2);
    if (r.left < 0 || r.right > innerWidth + 0.5 || !hit || !card.contains(hit)) bad.push(`${i} ${card.dataset.code} at ${Math.round(r.left)}`);
  }
  window.scrollTo(0, 0);
  return { n: cards.length, bad };
}"""

# A control one could click now, under the item animation? (A card still travelling to the hand, for a
# few hundred milliseconds, is not one yet: it is measured once in its place.)
FX_JS = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));  // as drawn: the notice is placed each frame
  const fx = document.getElementById("item-fx");
  if (!fx || fx.classList.contains("inline")) return null;
  const f = fx.getBoundingClientRect();
  return [...document.querySelectorAll("#game button:not(:disabled), #game select, #game a[href]")]
    .filter((node) => !node.getAnimations().some((a) => a.playState === "running"))
    .map((node) => [node, node.getBoundingClientRect()])
    .filter(([, r]) => r.width && r.height && r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom)
    .map(([node]) => node.id || node.className || node.tagName);
}"""

# The item's explanation, wherever it is placed, shows all its words in sight (it was once clipped to the opponents'
# strip, and once placed over the part of the log below the window's foot).
FX_CLIPPED_JS = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  // The notice is placed again in the frame after the table moved under it (motion.js, keepPlaced), and this
  // check's frame may come just before that pass: a cut counts only when it is still there a frame later.
  const cut = () => {
    const fx = document.getElementById("item-fx");
    if (!fx) return null;
    const node = fx.querySelector(".box");
    const box = node.getBoundingClientRect(), place = fx.getBoundingClientRect();
    const bar = document.querySelector(".topbar").getBoundingClientRect().bottom;  // in sight: below the sticky bar, above the window's foot
    const inside = fx.classList.contains("inline") || (box.top >= place.top - 1 && box.bottom <= place.bottom + 1 && box.left >= place.left - 1 && box.right <= place.right + 1
                                                        && box.top >= bar - 1 && box.bottom <= innerHeight + 1);
    const whole = node.scrollHeight <= node.clientHeight + 1 && node.scrollWidth <= node.clientWidth + 1;
    return inside && whole && box.right <= innerWidth + 1 && box.left >= -1 ? [] : [fx.querySelector(".what").textContent];
  };
  await frame(); await frame();
  const first = cut();
  if (!first || first.length === 0) return first;
  await frame();
  return cut();
}"""

RTL_JS = """() => {
  const order = (node, a, b) => {  // is character a drawn left of character b inside node's text?
    const text = node.firstChild;
    const at = (k) => { const range = document.createRange(); range.setStart(text, k); range.setEnd(text, k + 1); return range.getBoundingClientRect().left; };
    const s = text.textContent;
    return at(s.indexOf(a)) < at(s.indexOf(b));
  };
  const plus = [...document.querySelectorAll("#hand .card .card-glyph")].find((g) => g.textContent.startsWith("+"));
  const logo = document.querySelector(".logo");
  const name = [...document.querySelectorAll("#scores .nm")].find((n) => n.textContent.startsWith("Maximilian"));
  return {
    cardDir: getComputedStyle(document.querySelector("#hand .card")).direction,
    plusFirst: plus ? order(plus, "+", plus.textContent[1]) : null,
    logo: logo.querySelector("b").getBoundingClientRect().left < logo.querySelector("i").getBoundingClientRect().left,
    nameDir: name && getComputedStyle(name).direction, nameCut: name && getComputedStyle(name).textOverflow,
    nameIsolated: name && name.tagName,
  };
}"""


PLUS_FIRST_JS = """() => {
  const won = [...document.querySelectorAll("#summary-table td.num")].find((td) => td.textContent.startsWith("+"));
  const text = won.querySelector("bdi").firstChild;
  const left = (k) => { const range = document.createRange(); range.setStart(text, k); range.setEnd(text, k + 1); return range.getBoundingClientRect().left; };
  return left(0) < left(1);
}"""


def latin_words(page, allowed: set[str]) -> list[str]:
    """Latin words on the page but the allowed ones (the logo, names, codes, "English" in the language menu)."""
    text = page.inner_text("body")
    return sorted({word for word in re.findall(r"[A-Za-z][A-Za-z'’-]+", text) if word not in allowed and not any(word in a for a in allowed)})


def shot(page, folder, lang, size, screen):
    page.screenshot(path=folder / f"{lang}_{size}_{screen}.png")


def synced(pages, driver):
    """Every page shows the version the driving page shows."""
    version = driver.get_attribute("#game", "data-version")
    for page in pages:
        page.wait_for_function("v => document.querySelector('#game')?.dataset.version === v", arg=version)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("web-i18n") / "unokart.sqlite",
                                extra=["--round-pause", str(ROUND_PAUSE_S)])


def test_one_table_in_five_languages_at_three_sizes(fontless_browser, server, shots):
    folder = shots / "i18n"
    folder.mkdir(exist_ok=True)
    code = server.create(seats=3, bots={"1": "heuristic", "2": "random"}, options={"hand_size": 15, "target_score": 5000})["code"]
    token = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": LONG_NAME, "seat": 0}).json()["token"]

    pages, errors = {}, []
    for lang in LANGS:
        for size, viewport in SIZES.items():
            context = fontless_browser.new_context(viewport=viewport)
            context.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('unokart.lang', '{lang}'); "
                                    f"localStorage.setItem('unokart.token.{code}', '{token}') }}")  # not on about:blank
            page = context.new_page()
            page.set_default_timeout(30000)
            page.on("pageerror", lambda err, where=(lang, size): errors.append(f"{where}: {err}"))
            page.goto(f"{server.url}/t/{code}")
            pages[(lang, size)] = page
    driver = pages[("en", "laptop")]
    driver.wait_for_selector("#start-btn:not([disabled])")
    driver.click("#start-btn")
    for page in pages.values():
        page.wait_for_selector("#game")

    seen = {"colors": 0, "uno_armed": 0, "fx": 0}
    fx_pages = [pages[(lang, "phone")] for lang in LANGS] + [driver]
    # While the seat plays on, the tablets and laptops rest on a blank page (fifteen pages redrawing every move
    # starve a shared machine), and come back to the table, as a reload does, for each screen they are checked on.
    resting = [page for page in pages.values() if page not in fx_pages]

    def rest():
        for page in resting:
            page.goto("about:blank")

    def wake():
        for page in resting:
            page.goto(f"{server.url}/t/{code}", wait_until="commit")
        for page in resting:
            page.wait_for_selector("#game")

    def watch_fx():
        for page in fx_pages:
            covered = page.evaluate(FX_JS)
            if covered is not None:
                seen["fx"] += 1
                assert covered == [], f"the item animation covers {covered}"
            assert page.evaluate(FX_CLIPPED_JS) in (None, []), "the item's explanation is cut"

    deadline = time.monotonic() + DEADLINE_S
    mine = "() => document.querySelector('#game')?.dataset.mine === 'true'"

    # 1. The first turn of the seat: the table in every page (a first decision of another kind, such as
    # the dealer's colour for a Wild Item Box turned first, is answered on the way).
    while not (driver.evaluate(mine) and driver.get_attribute("#game", "data-awaiting") == "play"):
        assert time.monotonic() < deadline, "the seat never had a turn"
        if not take_turn(driver, seen):
            time.sleep(0.05)
    synced(pages.values(), driver)
    for (lang, size), page in pages.items():
        page.wait_for_selector("#item-fx", state="detached")
        layout = page.evaluate(OVERLAPS_JS)
        assert layout["overlaps"] == [], f"{lang} {size}: overlapping {layout['overlaps']}"
        assert layout["clipped"] == [], f"{lang} {size}: clipped text {layout['clipped']}"
        assert layout["wide"] == [], f"{lang} {size}: wider than the screen: {layout['wide']}"
        hand = page.evaluate(HAND_JS)
        assert hand["n"] >= 15 and hand["bad"] == [], f"{lang} {size}: cards out of reach {hand}"
        if lang != "en":
            assert latin_words(page, {"UNO", "kart", "UNOkart", "English", "Maximilian", "Alexander", "Lo", code, "Enter"}) == [], f"{lang} {size}: English left"
        if lang == "sd":
            rtl = page.evaluate(RTL_JS)
            assert rtl["cardDir"] == "ltr" and rtl["logo"] and rtl["plusFirst"] in (True, None), rtl
            assert (rtl["nameIsolated"], rtl["nameDir"], rtl["nameCut"]) == ("BDI", "ltr", "ellipsis"), rtl
        shot(page, folder, lang, size, "table")
    rest()

    # 2. The colour picker of a Wild Draw Four: draw until the seat holds one on its turn.
    while True:
        assert time.monotonic() < deadline, "no Wild Draw Four reached the seat"
        watch_fx()
        if driver.locator("#summary-dialog[open]").count():
            driver.click("#summary-close")
        if driver.evaluate(mine) and driver.get_attribute("#game", "data-awaiting") == "play" \
                and driver.locator('#hand .card[data-code="W+4"]').count():
            break
        if not driver.evaluate(mine):
            time.sleep(0.05)
            continue
        awaiting = driver.get_attribute("#game", "data-awaiting")
        if awaiting == "play":
            send_and_wait(driver, driver.locator("#stock"))
        elif awaiting == "drawn":
            send_and_wait(driver, driver.locator('#decision [data-verb="pass"]'))
        else:
            take_turn(driver, seen)
    wake()
    synced(pages.values(), driver)
    for (lang, size), page in pages.items():
        if page.locator("#summary-dialog[open]").count():  # a round that ended while the seat was drawing
            page.click("#summary-close")
        page.locator('#hand .card[data-code="W+4"]').first.click(position={"x": 10, "y": 40})
        page.wait_for_selector("#decision [data-color]")
        assert page.locator("#decision [data-color]").count() == 4
        layout = page.evaluate(OVERLAPS_JS)
        assert layout["overlaps"] == [] and layout["clipped"] == [], f"{lang} {size}: {layout}"
        shot(page, folder, lang, size, "colour_picker")
        if page is not driver:
            page.keyboard.press("Escape")
    rest()

    # 3. Play on until a round ends: the summary in every page (the resting ones come back within the pause).
    send_and_wait(driver, driver.locator("#decision [data-color]").first)
    while not driver.locator("#summary-dialog[open]").count():
        assert time.monotonic() < deadline, "the round did not end"
        watch_fx()
        if not take_turn(driver, seen):
            time.sleep(0.05)
    wake()
    for (lang, size), page in pages.items():
        page.wait_for_selector("#summary-dialog[open] #summary-table")
        width = page.evaluate("() => [document.querySelector('#summary-dialog').scrollWidth, document.querySelector('#summary-dialog').clientWidth]")
        assert width[0] <= width[1] + 1, f"{lang} {size}: the summary is wider than its dialog {width}"
        if lang != "en":
            assert latin_words(page, {"UNO", "kart", "UNOkart", "English", "Maximilian", "Alexander", "Lo", code, "Enter"}) == [], f"{lang} {size}: English left"
        cut = page.evaluate("""(long) => [...document.querySelectorAll('#summary-table .nm')]
            .filter((n) => n.textContent !== long && (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1))
            .map((n) => n.textContent)""", LONG_NAME)
        assert cut == [], f"{lang} {size}: names cut in the summary: {cut}"
        if lang == "sd":  # the winner's "+230" keeps its sign in front
            assert page.evaluate(PLUS_FIRST_JS), f"{size}: the points won read backwards"
        shot(page, folder, lang, size, "round_summary")

    # 4. The next round is dealt after the pause; a reloaded page still has the earlier rounds' log.
    page = pages[("sd", "phone")]
    page.wait_for_function("() => Number(document.querySelector('#game')?.dataset.round) >= 2",
                           timeout=(ROUND_PAUSE_S + 30) * 1000)
    before = page.locator("#log p").count()
    page.reload()
    page.wait_for_selector("#game")
    page.wait_for_function("() => document.querySelectorAll('#log p.round').length >= 2")
    assert page.locator('#log p.round[data-round="1"]').count() == 1, "the first round's log came back after the reload"
    assert page.locator("#log p").count() >= before

    for page in pages.values():
        page.context.close()
    assert errors == [], errors
    assert server.errors_logged() == ""
