"""Every browser screen in all five languages, at a laptop's and a phone's size (issue 22, "How to keep it right").

One page per size walks through the lobby, the create form, the waiting room, the table
mid-game, the colour picker, the chat and a reaction, an item's effect, the rules dialog, the keys, a round's and
a game's summary, a replay and the rules page, in English first and then in Tamil,
Kannada, Telugu and Sindhi. A person with an Arabic-script name sits at the table in the
left-to-right languages, one with a Latin name with digits and punctuation in Sindhi.
On every screen:

- no text element is clipped (its scrollWidth over its clientWidth where overflow is hidden);
- no two pieces of text overlap;
- every name is inside a <bdi> or an isolate;
- no notation code ("R5", "W+4") is shown outside a card face;
- no English sentence of the English page's same screen is left on another language's page.

The tables are scripted (helpers.web.ScriptedTable: the rules core's seeded game, the
server's own messages); the lobby, the waiting room and the replays are the real server's.
The page's clock is Playwright's (installed, never moved): nothing on the page times out
or moves on its own while it is checked. Screenshots go to artifacts/screenshots/walkthrough/
(and to $UNOKART_SHOTS too when it is set).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from helpers.web import ScriptedTable, finished_game_of
from unokart.i18n import t

LANGS = ("en", "ta", "kn", "te", "sd")
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ARABIC_NAME = "\u0639\u0644\u064a \u0631\u0636\u0627!"  # "علي رضا!"
LATIN_NAME = "Ann-2 O'Neil!"
# A second folder for the screenshots, when asked for (UNOKART_SHOTS=/some/folder): to keep a run's pictures.
EXTRA_SHOTS = Path(os.environ["UNOKART_SHOTS"]) if os.environ.get("UNOKART_SHOTS") else None

# What each screen shows, checked in the page: its clipped texts, overlapping texts, names not isolated,
# notation codes and the texts of its text nodes (to compare with the English page's).
CHECK_JS = r"""({ scope, names }) => {
  const root = document.querySelector(scope) || document.body;
  const visible = (node) => {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const style = getComputedStyle(node);
    if (node.closest("details:not([open])") && !node.closest("summary")) return false;
    return style.visibility !== "hidden" && style.opacity !== "0" && !node.closest(".sr-only, dialog:not([open]), .hidden, #fx-layer, .card");
  };
  // The part of a rect its scrolling (or clipping) ancestors let be seen, or null.
  const seen = (node, r) => {
    let box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    for (let at = node.parentElement; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = at.getBoundingClientRect();
      box = { left: Math.max(box.left, c.left), right: Math.min(box.right, c.right), top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom) };
      if (box.right - box.left < 1 || box.bottom - box.top < 1) return null;
    }
    return box;
  };
  const elements = [root, ...root.querySelectorAll("*")].filter((node) => !["SCRIPT", "STYLE", "OPTION", "svg"].includes(node.tagName));
  const texts = [];  // [element, text node]
  for (const node of elements) for (const child of node.childNodes) if (child.nodeType === 3 && child.textContent.trim()) texts.push([node, child]);
  const shown = texts.filter(([node]) => visible(node));

  const clipped = elements.filter((node) => {
    if (!visible(node) || !node.textContent.trim()) return false;
    const style = getComputedStyle(node);
    const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    return hides && (node.scrollWidth > node.clientWidth + 1 || (style.overflowY !== "visible" && node.scrollHeight > node.clientHeight + 1));
  }).map((node) => `${node.tagName}.${node.className}: ${node.textContent.trim().slice(0, 40)}`);

  const boxes = [];
  for (const [node, child] of shown) {
    const range = document.createRange();
    range.selectNodeContents(child);
    for (const rect of range.getClientRects()) {
      const r = rect.width > 1 && rect.height > 1 ? seen(node, rect) : null;
      if (r) boxes.push({ node, text: child.textContent.trim().slice(0, 30), r: { ...r, height: r.bottom - r.top } });
    }
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.node === b.node) continue;
    const dx = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const dy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (dx > 2 && dy > Math.min(a.r.height, b.r.height) / 3) overlaps.push(`${a.text} / ${b.text}`);
  }

  const isolated = (node) => {
    for (let at = node; at && at !== document.documentElement; at = at.parentElement) {
      if (at.tagName === "BDI" || ["isolate", "isolate-override", "plaintext"].includes(getComputedStyle(at).unicodeBidi)) return true;
    }
    return false;
  };
  const bare = [];
  for (const [node, child] of texts) for (const name of names) {
    const text = child.textContent;
    if (text.includes(name) && !isolated(node) && !text.includes("\u2068" + name + "\u2069")) bare.push(`${name} in "${text.trim().slice(0, 50)}"`);
  }
  for (const option of root.querySelectorAll("option")) for (const name of names) {
    if (option.textContent.includes(name) && !option.textContent.includes("\u2068" + name + "\u2069") && option.textContent !== name) bare.push(`${name} in option "${option.textContent}"`);
  }

  const code = /(^|[^A-Za-z0-9+])((?:[RYGB](?:[0-9]|S|R|\+2))|W\+4|WIB)(?![A-Za-z0-9])/;
  const notation = shown.filter(([node, child]) => !node.closest(".card, .card-chip, kbd, .rule-id, .rule-hint, input, #top-meta") && code.test(child.textContent))
    .map(([, child]) => child.textContent.trim().slice(0, 50));

  return { clipped, overlaps: [...new Set(overlaps)], bare, notation, texts: shown.map(([, child]) => child.textContent.trim()) };
}"""


def english_sentences(texts: list[str], names: list[str]) -> set[str]:
    """The English page's texts that are sentences: two Latin words or more, once names are taken out."""
    out = set()
    for text in texts:
        rest = text
        for name in names:
            rest = rest.replace(name, "")
        if len(re.findall(r"[A-Za-z]?[a-z]{2,}", rest)) >= 2:  # words, not a table code ("JM3JM9")
            out.add(text)
    return out


class Walk:
    """One page walking through the screens in one language, checking each."""

    def __init__(self, page, lang, size, english, shots):
        self.page, self.lang, self.size, self.english, self.shots = page, lang, size, english, shots
        self.name = LATIN_NAME if lang == "sd" else ARABIC_NAME
        self.names = [self.name]
        self.problems: list[str] = []

    def check(self, screen, scope="body"):
        page = self.page
        page.evaluate("() => document.fonts.ready")
        found = page.evaluate(CHECK_JS, {"scope": scope, "names": self.names})
        where = f"{self.lang} {self.size} {screen}"
        for kind in ("clipped", "overlaps", "bare", "notation"):
            if found[kind]:
                self.problems.append(f"{where}: {kind} {found[kind]}")
        if self.lang == "en":
            self.english[(self.size, screen)] = english_sentences(found["texts"], self.names + [LATIN_NAME, ARABIC_NAME])
        else:
            left = sorted(text for text in found["texts"] if text in self.english.get((self.size, screen), set()))
            if left:
                self.problems.append(f"{where}: English left {left}")
        shot = f"{self.lang}_{self.size}_{screen}.png"
        page.screenshot(path=self.shots / shot)
        if EXTRA_SHOTS is not None:
            EXTRA_SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=EXTRA_SHOTS / shot)


def scripted_page(context, server, table, lang, seat=0):
    page = context.new_page()
    page.on("pageerror", lambda err: context.errors.append(f"{lang}: {err}"))
    page.clock.install()
    table.attach(page, seat)
    page.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('unokart.lang', '{lang}'); "
                         f"localStorage.setItem('unokart.token.{table.code}', 'scripted') }}")
    return page


def walk_lobby(walk, server, replay_id):
    page = walk.page
    page.goto(server.url + "/")
    page.wait_for_selector("#games-list li a")
    page.wait_for_selector("#tables-list li:not(.empty), #tables-list li.empty")
    walk.check("lobby")
    page.fill("#create-form input[name=name]", walk.name)
    page.select_option("select[name=seats]", "5")
    walk.check("create", "#create-form")
    page.select_option("select[name=seats]", "2")
    page.select_option("select[name=seat-1]", "heuristic")
    page.click("#create-btn")
    page.wait_for_selector("#waiting-room #start-btn")
    walk.check("waiting_room")
    page.goto(f"{server.url}/#replay/{replay_id}?seat=0&round=1&step=1")  # seat 0 still holds a card after one move
    page.wait_for_selector("#replay #hand .card")
    walk.check("replay")
    page.goto(f"{server.url}/#rules")
    page.wait_for_selector("#rules #R12")
    walk.check("rules_page")


def walk_table(walk, server, context, code):
    """The scripted table: the colour picker of a first Wild Item Box, mid-game, an item, the dialogs, the summaries."""
    table = ScriptedTable([walk.name, "B", "C"], bots={1: "heuristic", 2: "careful"}, seed=18, dealer=0, code=code,
                          options={"target_score": 5000})
    walk.names = [walk.name] + [t("web.bot_name", walk.lang, n=seat + 1, level=t(f"web.level.{level}", walk.lang))
                                for seat, level in ((1, "heuristic"), (2, "careful"))]
    page = scripted_page(context, server, table, walk.lang)
    walk.page = page
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector("#decision [data-color]")
    walk.check("colour_picker")
    page.click("#decision [data-color]")
    shown(page, table, at_least=1)  # the page's own move is applied before the bots move on
    table.advance(lambda game: game.to_act == 0 and game.awaiting == "play" and table.table.version > 3)
    shown(page, table)
    calm(page)
    walk.check("table")
    page.fill("#chat-input", f"{walk.name} 2:1")
    page.click("#chat-send")
    page.click("#chat .react-btn")
    page.wait_for_selector("#chat-log .chat-text")
    page.wait_for_selector(".reaction-float", state="attached")
    page.evaluate("() => document.getElementById('chat').scrollIntoView()")
    walk.check("chat", "#chat")
    start = len(table.game.events)
    table.advance(lambda game: any(e.get("type") == "item" and e.get("item") for _, e in game.events[start:]), choose=plays_first)
    shown(page, table)
    page.wait_for_selector("#item-fx")
    walk.check("item_effect", "#item-fx")
    calm(page)
    page.click("#rules-link")
    page.wait_for_selector("#rules-dialog[open]")
    walk.check("rules_dialog", "#rules-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog:not([open])", state="attached")
    if walk.size == "phone":
        page.keyboard.press("?")
    else:
        page.click("#help-btn")
    page.wait_for_selector("#keys-dialog[open]")
    walk.check("keys", "#keys-dialog")
    page.keyboard.press("Escape")
    table.advance(lambda game: game.awaiting in ("round_over", "game_over"))
    page.wait_for_selector("#summary-dialog[open] #summary-table")
    calm(page)
    walk.check("round_summary", "#summary-dialog")
    page.close()

    final = ScriptedTable([walk.name, "B"], bots={1: "heuristic"}, seed=9, code=code + "G", options={"hand_size": 3, "target_score": 1})
    page = walk.page = scripted_page(context, server, final, walk.lang)
    page.goto(f"{server.url}/t/{final.code}")
    page.wait_for_selector("#game")
    final.advance(lambda game: game.awaiting == "game_over")
    page.wait_for_selector("#summary-dialog[open] #summary-table")
    calm(page)
    walk.check("game_summary", "#summary-dialog")
    page.close()


def calm(page):
    """The table alone: the moments the bots' moves brought (an item's notice, an announcement) taken away."""
    page.evaluate("() => { document.getElementById('item-fx')?.remove(); document.getElementById('announce')?.classList.remove('show'); }")


def shown(page, table, at_least=None):
    """Wait until the page shows the table's last version (or, for a move of its own, at least that one)."""
    if at_least is not None:
        page.wait_for_function("v => Number(document.querySelector('#game')?.dataset.version) >= v", arg=at_least)
    else:
        page.wait_for_function("v => document.querySelector('#game')?.dataset.version === v", arg=str(table.table.version))


def plays_first(game, legal):
    return next((action for action in legal if " play " in f" {action} "), None)


@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_in_five_languages(browser, server, shots, size):
    folder = shots / "walkthrough"
    folder.mkdir(exist_ok=True)
    english: dict = {}
    problems: list[str] = []
    errors: list[str] = []
    games = {lang: finished_game_of(server, LATIN_NAME if lang == "sd" else ARABIC_NAME) for lang in ("en", "sd")}
    for n, lang in enumerate(LANGS):
        context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
        context.errors = errors
        context.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem('unokart.lang', '{lang}')")
        page = context.new_page()
        page.set_default_timeout(20000)
        page.on("pageerror", lambda err, where=lang: errors.append(f"{where}: {err}"))
        page.clock.install()
        walk = Walk(page, lang, size, english, folder)
        walk_lobby(walk, server, games["sd" if lang == "sd" else "en"]["id"])
        page.close()
        walk_table(walk, server, context, f"W{size[0].upper()}{n}{lang.upper()}")
        context.close()
        problems += walk.problems
    assert errors == []
    assert problems == [], "\n".join(problems)
