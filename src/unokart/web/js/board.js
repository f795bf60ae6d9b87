// Drawing one moment of a round from a seat's view (View.to_json(), NOTATION.md): the
// opponents, the stock and the discard pile, a hand, the scores. The live table and the
// replay viewer both draw with these, so a replay looks exactly like the game did.
import { t, tNodes } from "./i18n.js";
import { el } from "./ui.js";
import { cardBack, cardElement, colorChip, sortHand } from "./cards.js";

/**
 * A player's name: isolated (<bdi>, its own direction, so "Ann" stays whole in a Sindhi
 * sentence) and, when too long, cut at the end that reads last (CSS .nm).
 */
export function nameEl(name) {
  return el("bdi.nm", { title: name }, name);
}

/** Seats in the order they sit after ``seat`` (the next one is "left", R2.1). */
export function seatsAfter(seat, n) {
  const start = seat === null || seat === undefined ? 0 : seat + 1;
  const count = seat === null || seat === undefined ? n : n - 1;
  return Array.from({ length: count }, (_, i) => (start + i) % n);
}

export const handSize = (view, seat) => (Array.isArray(view.hands[seat]) ? view.hands[seat].length : view.hands[seat]);

/**
 * One opponent's box. ``extra(seat)`` may return nodes to add to it (a catch or a target
 * button); ``openHands`` (replay, all cards open) shows their cards; ``ring`` (a node) is the
 * countdown of the seat's turn timer.
 */
export function opponentBox(view, s, { me = null, seatInfo = [], extra = () => [], openHands = null, ring = null } = {}) {
  const size = handSize(view, s);
  const info = seatInfo[s] || {};
  const toAct = view.to_act === s;
  const fan = el("div.fan", { "aria-hidden": "true" });
  for (let i = 0; i < Math.min(size, 8); i++) fan.append(cardBack("sm"));
  const status = info.away ? t("web.table.away") : info.kind === "human" && !info.connected ? t("web.table.offline") : "";
  return el(`div.opp${toAct ? ".to-act" : ""}${view.dealer === s ? ".dealer" : ""}${status ? ".offline" : ""}`, {
    dataset: { seat: s }, "aria-current": toAct ? "true" : null,
    "aria-label": t("web.table.opp_label", { name: view.players[s], cards: t("web.n_cards", { n: size }), score: t("web.n_points", { n: view.scores[s] }) }),
  },
    // The UNO flag ends the name's line (never laid over the name, whatever its length or direction).
    el("div.name", {}, nameEl(view.players[s]), s === me ? el("span.you", {}, ` (${t("web.you")})`) : null,
      view.uno_said[s] && size === 1 ? el("span.uno-flag", {}, "UNO") : null),
    el("div.line", {}, el("span", {}, el("span.count", { dataset: { count: s } }, size), " ", t("web.table.cards", { n: size })), el("span.pts", {}, t("web.table.points", { n: view.scores[s] }))),
    openHands ? openHand(openHands[s]) : fan,
    el("div.line", {}, toAct ? el("span.turn-flag", {}, ring, t("web.table.their_turn")) : el("span", {}, status), view.dealer === s ? el("span", {}, t("web.table.dealer")) : null),
    extra(s));
}

/** The opponents' boxes (the replay draws them all at once; the live table keeps each box). */
export function renderOpponents(view, seats, options = {}) {
  const box = el("section.opponents", { "aria-label": t("web.table.opponents") });
  for (const s of seats) box.append(opponentBox(view, s, options));
  return box;
}

function openHand(codes) {
  return el("div.open-hand", {}, sortHand(codes).map(({ code }) => cardElement(code)));
}

/** The direction of play, on a row of its own above the stock and the pile. */
export function directionEl(view) {
  const clockwise = view.direction === 1;
  return el("div.direction" + (clockwise ? "" : ".ccw"), { id: "direction", title: t(clockwise ? "core.direction.left" : "core.direction.right") },
    el("span.arrow", { "aria-hidden": "true", dir: "ltr" }, "\u21BB"), " ", t(clockwise ? "core.direction.left" : "core.direction.right"));
}

/** The stock: a button when drawing is allowed, and how many cards it holds. */
export function stockEl(view, { canDraw = false, onDraw = null } = {}) {
  const stock = el("button.stock-btn", {
    type: "button", id: "stock", disabled: !canDraw, onclick: onDraw,
    "aria-label": canDraw ? t("web.table.draw_label", { n: view.stock }) : t("web.table.stock_label", { n: view.stock }),
  }, cardBack());
  if (canDraw) stock.classList.add("can-draw");
  return el("div.stock-wrap", {}, stock, el("span.stock-count", { id: "stock-count" }, t("web.table.stock", { n: view.stock })));
}

/** The discard pile with the active colour. */
export function pileEl(view) {
  const pile = el("div.pile", { id: "pile" });
  if (view.discard > 1) pile.append(el("div.card.card-back.under", { "aria-hidden": "true" }));
  if (view.top) {
    const top = cardElement(view.top, { activeColor: view.color });
    top.id = "top-card";
    pile.append(top);
  }
  const color = view.color
    ? el("div.active-color", { id: "active-color" }, t("web.table.active_color"), colorChip(view.color))
    : el("div.active-color", { id: "active-color" }, t("web.table.no_color"));
  return el("div.pile-wrap", {}, pile, color);
}

/** The centre of the table: the direction, the stock, the discard pile. */
export function renderCenter(view, options = {}) {
  return el("section.center", { "aria-label": t("web.table.center") }, directionEl(view), stockEl(view, options), pileEl(view));
}

/** The scores and hand sizes, one row per seat. */
export function renderScores(view, targetScore) {
  const rows = view.players.map((name, s) => el("tr", { class: view.to_act === s ? "to-act" : null },
    el("td", {}, view.to_act === s ? "\u25B6 " : "", nameEl(name)),
    el("td.num", {}, handSize(view, s)),
    el("td.num", {}, view.scores[s])));
  return el("section.panel.scores", { id: "scores" },
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, t("web.table.player")), el("th.num", {}, t("web.table.cards_h")), el("th.num", {}, t("core.scores")))), el("tbody", {}, rows)),
    el("p.sub", { style: "margin:.4em 0 0;color:var(--muted);font-size:.85em" }, t("web.table.target", { n: targetScore })));
}

/** The "who must decide" line, in the catalogue's words (core.awaiting.*). */
export function awaitingText(view) {
  if (view.awaiting === "round_over" || view.awaiting === "game_over") return t(`core.awaiting.${view.awaiting}`);
  return tNodes(`core.awaiting.${view.awaiting}`, { name: nameEl(view.players[view.to_act] ?? "") });
}

const MIN_STEP = 30; // px of each card left in view when cards overlap: its corner, letter and item

/**
 * Lays a hand out so that every card can be seen and clicked, whatever its size: cards overlap
 * just enough to fit one row, and when even overlapping at MIN_STEP would not fit, they wrap into
 * rows of equal length. Each card takes --step pixels of the row (CSS .hand); the row's padding
 * gives the last card of a row its full width, so a row wraps exactly where it would overflow.
 */
export function layoutHand(hand) {
  const cards = hand.querySelectorAll(".card");
  if (!cards.length) return;
  // The room for a row: the hand's width less its base padding, the same on both sides (the left
  // padding also holds the overlap of the step now set, so it is not measured).
  // (clientWidth is rounded to whole pixels: the exact width, less half a pixel for the layout's rounding.)
  const width = hand.getBoundingClientRect().width - 2 * parseFloat(getComputedStyle(hand).paddingRight) - 0.5;
  const card = cards[0].getBoundingClientRect().width || 74;
  const n = cards.length;
  const gap = 6;
  let perRow = n;
  if (n > 1 && (n - 1) * MIN_STEP + card > width) perRow = Math.max(1, Math.floor((width - card) / MIN_STEP) + 1);
  const rows = Math.ceil(n / perRow);
  const inRow = Math.ceil(n / rows); // rows of equal length, the last one shorter
  const step = inRow > 1 ? Math.min(card + gap, Math.floor(((width - card) / (inRow - 1)) * 100) / 100) : card + gap;
  hand.style.setProperty("--step", `${Math.max(step, 1)}px`);
  hand.classList.toggle("wrapped", rows > 1);
}

// A turned phone or a resized window lays the hand out again.
window.addEventListener("resize", () => {
  const hand = document.getElementById("hand");
  if (hand) layoutHand(hand);
});
