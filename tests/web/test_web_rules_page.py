"""How to play, in the browser, in all five languages; plural forms by CLDR (issue 14).

- /#rules shows the rules catalogue (i18n/*/rules.json): every section R1 to R12 with
  its title and its paragraphs, and the five items explained, in each language, on
  the machine without fonts; no English outside the rule ids.
- On a table, a refused card shows the reason with its rule id as a hint; the hint
  opens that rule over the table, which stays where it was.
- Every message with plural forms has exactly the CLDR plural categories of its
  language (as the browser's Intl.PluralRules knows them), and the page picks them.
"""

from __future__ import annotations

import re

import httpx

from unokart.i18n import catalogue

from helpers.web import SIZES

LANGS = ("en", "ta", "kn", "te", "sd")
ITEMS = ("mushroom", "banana", "green_shell", "lightning", "bobomb")


def page_in(browser, lang: str, size: str = "phone", token: tuple[str, str] | None = None):
    context = browser.new_context(viewport=SIZES[size])
    script = f"localStorage.setItem('unokart.lang', '{lang}');"
    if token:
        script += f"localStorage.setItem('unokart.token.{token[0]}', '{token[1]}');"
    context.add_init_script(script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    return context, page, errors


def test_how_to_play_in_every_language(fontless_browser, server, shots):
    folder = shots / "i18n"
    folder.mkdir(exist_ok=True)
    for lang in LANGS:
        messages = catalogue(lang)
        context, page, errors = page_in(fontless_browser, lang)
        try:
            page.goto(server.url + "/")
            page.click("#rules-link")
            page.wait_for_selector("#rules")
            assert page.inner_text("#rules h1") == messages["rules.title"]
            for n in range(1, 13):
                section = page.locator(f"#rules #R{n}")
                heading = section.locator("h2").inner_text()
                assert heading.startswith(f"R{n}") and messages[f"rules.section.{n}.title"] in heading
                paragraphs = section.locator("p").all_inner_texts()
                assert paragraphs == messages[f"rules.section.{n}.body"].split("\n")
            assert page.locator("#rules-items li").all_inner_texts() == [messages[f"rules.item.{item}"] for item in ITEMS]
            if lang != "en":
                text = page.inner_text("#rules")
                left = {word for word in re.findall(r"[A-Za-z][A-Za-z-]+", text)} - {"UNO"}
                assert left == set(), f"{lang}: English on the rules page: {sorted(left)}"
            assert page.evaluate("document.fonts.check('16px \"UnoKart Latin\"', 'R1')")
            page.screenshot(path=folder / f"{lang}_phone_rules.png")
            assert errors == [], errors
        finally:
            context.close()


def test_a_refusal_names_its_rule_and_opens_it_over_the_table(fontless_browser, server):
    code = server.create(seats=2, bots={"1": "heuristic"}, options={"hand_size": 7})["code"]
    token = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    context, page, errors = page_in(fontless_browser, "te", "laptop", (code, token))
    try:
        page.goto(f"{server.url}/t/{code}")
        page.click("#start-btn")
        page.wait_for_selector("#hand .card")
        page.wait_for_selector("#item-fx", state="detached")
        # Out of turn, or not matching: no card that is not raised can be played (R4.1).
        card = page.locator("#hand .card:not(.playable)").first
        card.click(position={"x": 10, "y": 40})
        page.wait_for_selector("#error-banner:not(.hidden) .rule-hint")
        banner = page.inner_text("#error-banner .error-text")
        assert "R4" not in banner and re.search("[\u0C00-\u0C7F]", banner), banner  # Telugu words, the rule apart
        assert page.get_attribute("#error-banner .rule-hint", "data-rule") == "R4.1"
        url = page.url
        page.click("#error-banner .rule-hint")
        page.wait_for_selector("#rules-dialog[open] #R4")
        assert page.url == url and page.locator("#game").count() == 1, "the table stays behind the rules"
        assert catalogue("te")["rules.section.4.title"] in page.inner_text("#rules-dialog #R4 h2")
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-dialog[open]", state="detached")
        assert errors == [], errors
    finally:
        context.close()


PLURALS_JS = """async (lang) => {
  const messages = await (await fetch(`/api/i18n/${lang}`)).json();
  const byKey = {};
  for (const key of Object.keys(messages)) {
    const m = /^(.*)\\.(zero|one|two|few|many|other)$/.exec(key);
    if (m) (byKey[m[1]] ??= []).push(m[2]);
  }
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadLanguage(lang);
  return {
    categories: new Intl.PluralRules(lang).resolvedOptions().pluralCategories.sort(),
    keys: Object.fromEntries(Object.entries(byKey).map(([k, v]) => [k, v.sort()])),
    one: i18n.t("web.n_cards", { n: 1 }), five: i18n.t("web.n_cards", { n: 5 }),
  };
}"""


def test_plural_messages_have_their_languages_cldr_categories(fontless_browser, server):
    context, page, errors = page_in(fontless_browser, "en")
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#lobby")
        for lang in LANGS:
            found = page.evaluate(PLURALS_JS, lang)
            assert found["keys"], "plural messages exist"
            wrong = {key: cats for key, cats in found["keys"].items() if cats != found["categories"]}
            assert not wrong, f"{lang} needs {found['categories']}: {wrong}"
            assert found["one"] == catalogue(lang)["web.n_cards.one"].replace("{n}", "1")
            assert found["five"] == catalogue(lang)["web.n_cards.other"].replace("{n}", "5")
        assert errors == [], errors
    finally:
        context.close()
