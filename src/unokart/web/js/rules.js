// "How to play": the rules R1 to R12 and the items, in the reader's language (i18n/*/rules.json,
// the same keys as the terminal's rules screen). A page of its own (/#rules, /#rules/N), and a
// dialog over a table, so that reading the rules never leaves a game.
import { t } from "./i18n.js";
import { el, navigate } from "./ui.js";
import { itemSvg } from "./cards.js";

export const SECTIONS = 12;
const ITEMS = [["mushroom", "R"], ["banana", "Y"], ["green_shell", "G"], ["lightning", "B"], ["bobomb", "W"]];

function paragraphs(text) {
  return text.split("\n").map((line) => el("p", {}, line));
}

/** The rules as one article: title, intro, the items, then every section with its id (R1 ... R12). */
export function rulesArticle() {
  const items = el("ul.rules-items", { id: "rules-items" }, ITEMS.map(([item, color]) => {
    const icon = el("span.rules-icon", { "aria-hidden": "true", dataset: { color } });
    icon.innerHTML = itemSvg(item, 40);
    return el("li", { dataset: { item } }, icon, el("span", {}, t(`rules.item.${item}`)));
  }));
  const sections = [];
  for (let n = 1; n <= SECTIONS; n++) {
    sections.push(el("section.rules-section", { id: `R${n}`, dataset: { section: n } },
      el("h2", {}, el("span.rule-id", { dir: "ltr" }, `R${n}`), " ", t(`rules.section.${n}.title`)),
      paragraphs(t(`rules.section.${n}.body`))));
  }
  return el("article.rules", { id: "rules" },
    el("h1", {}, t("rules.title")),
    el("p.rules-intro", {}, t("rules.intro")),
    el("h2", {}, t("rules.items.title")), items,
    sections);
}

/** The rules page; ``section`` (1 to 12) is scrolled into view. */
export function showRules(app, section) {
  const back = el("a.btn.btn-ghost", { href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } }, t("web.back_to_lobby"));
  app.append(el("div.rules-page", {}, rulesArticle(), el("p", {}, back)));
  if (section) document.getElementById(`R${section}`)?.scrollIntoView();
  return { close() {} };
}

/** The rules over whatever is shown (a table): a dialog, closed by its button or Escape. */
export function openRulesDialog(section) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    dialog = el("dialog.rules-dialog", { id: "rules-dialog", "aria-labelledby": "rules-dialog-title" });
    document.body.append(dialog);
  }
  const article = rulesArticle();
  const title = article.querySelector("h1");
  title.id = "rules-dialog-title";
  // The dialog opens at its top, on its title: showModal() would focus the Close button at the end.
  title.tabIndex = -1;
  title.autofocus = true;
  dialog.replaceChildren(article, el("form.row", { method: "dialog", style: "justify-content:flex-end" }, el("button.btn", {}, t("web.close"))));
  dialog.showModal();
  dialog.scrollTop = 0;
  if (section) dialog.querySelector(`#R${section}`)?.scrollIntoView();
}
