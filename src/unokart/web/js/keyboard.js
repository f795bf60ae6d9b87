// The table's keyboard: arrows and digits move through the hand, Enter plays the card in focus,
// letters press the buttons shown (the same buttons a mouse clicks, so a key does nothing a
// click could not), "?" lists the keys.
import { t } from "./i18n.js";
import { el } from "./ui.js";

export const KEYS = [
  ["\u2190 \u2192", "web.keys.move"], ["1-9", "web.keys.pick"], ["Enter", "web.keys.play"], ["D", "web.keys.draw"],
  ["P", "web.keys.keep"], ["U", "web.keys.uno"], ["C", "web.keys.challenge"], ["A", "web.keys.accept"],
  ["R Y G B", "web.keys.colors"], ["K", "web.keys.catch"], ["Esc", "web.keys.cancel"], ["?", "web.keys.help"],
];
const LETTER_VERBS = { d: "draw", p: "pass", c: "challenge", a: "accept" };

export function openKeys() {
  const list = document.getElementById("keys-list");
  list.replaceChildren(...KEYS.map(([keys, label]) => el("li", {}, el("span", {}, t(label)), el("kbd", {}, keys))));
  document.getElementById("keys-dialog").showModal();
}

function moveInHand(screen, key) {
  const cards = [...screen.querySelectorAll("#hand .card")];
  const current = cards.indexOf(document.activeElement);
  if (key === "ArrowRight" || key === "ArrowLeft") {
    const step = key === "ArrowRight" ? 1 : -1;
    cards[(current + step + cards.length) % cards.length]?.focus();
    return true;
  }
  if (!/^[0-9]$/.test(key)) return false;
  const index = (Number(key) + 9) % 10;
  const pickers = [...screen.querySelectorAll("#decision [data-target]")];
  if (pickers.length) pickers[index]?.click();
  else cards[index]?.focus();
  return true;
}

/**
 * Listens on the document while a seat plays. ``table`` gives: screen (the table's element),
 * playing() (a seated player sees the game), choosingColor(), chooseColor(letter), pressUno(),
 * cancel() (closes the colour picker; false when none was open).
 */
export function attachKeyboard(table) {
  const byVerb = (verb) => table.screen.querySelector(`#decision [data-verb="${verb}"]`);
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]") || ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) return;
    if (!table.playing()) return;
    const key = event.key;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    let handled = true;
    if (moveInHand(table.screen, key)) { /* moved */ }
    else if (table.choosingColor() && "rygb".includes(lower) && key.length === 1) table.chooseColor(key.toUpperCase());
    else if (key === "Enter" && byVerb("play-drawn")) byVerb("play-drawn").click(); // only the drawn card may be played now (R4.3)
    else if (lower in LETTER_VERBS) byVerb(LETTER_VERBS[lower])?.click();
    else if (lower === "u") table.pressUno();
    else if (lower === "k") table.screen.querySelector("[data-catch]")?.click();
    else if (key === "Escape") handled = table.cancel();
    else if (key === "?") openKeys();
    else handled = false;
    if (handled) event.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
