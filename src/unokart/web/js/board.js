// Drawing one moment of a round from a seat's view (View.to_json(), NOTATION.md): the
// opponents, the stock and the discard pile, a hand, the scores. The live table and the
// replay viewer both draw with these, so a replay looks exactly like the game did.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { cardBack, cardElement, colorChip, sortHand } from "./cards.js";

/** Seats in the order they sit after ``seat`` (the next one is "left", R2.1). */
export function seatsAfter(seat, n) {
  const start = seat === null || seat === undefined ? 0 : seat + 1;
  const count = seat === null || seat === undefined ? n : n - 1;
  return Array.from({ length: count }, (_, i) => (start + i) % n);
}

export const handSize = (view, seat) => (Array.isArray(view.hands[seat]) ? view.hands[seat].length : view.hands[seat]);

/**
 * The opponents' boxes. ``extra(seat)`` may return nodes to add to a box (a catch or a
 * target button); ``openHands`` (replay, all cards open) shows their cards.
 */
export function renderOpponents(view, seats, { me = null, seatInfo = [], extra = () => [], openHands = null } = {}) {
  const box = el("section.opponents", { "aria-label": t("web.table.opponents") });
  for (const s of seats) {
    const size = handSize(view, s);
    const info = seatInfo[s] || {};
    const toAct = view.to_act === s;
    const fan = el("div.fan", { "aria-hidden": "true" });
    for (let i = 0; i < Math.min(size, 8); i++) fan.append(cardBack("sm"));
    const status = info.away ? t("web.table.away") : info.kind === "human" && !info.connected ? t("web.table.offline") : "";
    const node = el(`div.opp${toAct ? ".to-act" : ""}${view.dealer === s ? ".dealer" : ""}${status ? ".offline" : ""}`, {
      dataset: { seat: s }, "aria-current": toAct ? "true" : null,
      "aria-label": t("web.table.opp_label", { name: view.players[s], cards: size, score: view.scores[s] }),
    },
      el("div.name", { title: view.players[s] }, view.players[s], s === me ? ` (${t("web.you")})` : ""),
      el("div.line", {}, el("span", {}, el("span.count", { dataset: { count: s } }, size), " ", t("web.table.cards", { n: size })), el("span.pts", {}, t("web.table.points", { n: view.scores[s] }))),
      openHands ? openHand(openHands[s]) : fan,
      el("div.line", {}, toAct ? el("span.turn-flag", {}, t("web.table.their_turn")) : el("span", {}, status), view.dealer === s ? el("span", {}, t("web.table.dealer")) : null),
      view.uno_said[s] && size === 1 ? el("span.uno-flag", {}, "UNO") : null,
      extra(s));
    box.append(node);
  }
  return box;
}

function openHand(codes) {
  return el("div.open-hand", {}, sortHand(codes).map(({ code }) => cardElement(code)));
}

/** The stock (a button when drawing is allowed) and the discard pile with the active colour. */
export function renderCenter(view, { canDraw = false, onDraw = null } = {}) {
  const stockCard = cardBack();
  const stock = el("button.stock-btn", {
    type: "button", id: "stock", disabled: !canDraw, onclick: onDraw,
    "aria-label": canDraw ? t("web.table.draw_label", { n: view.stock }) : t("web.table.stock_label", { n: view.stock }),
  }, stockCard);
  if (canDraw) stock.classList.add("can-draw");
  const pile = el("div.pile", { id: "pile" });
  if (view.discard > 1) pile.append(el("div.card.card-back.under", { "aria-hidden": "true" }));
  if (view.top) {
    const top = cardElement(view.top, { activeColor: view.color });
    top.id = "top-card";
    pile.append(top);
  }
  const color = view.color
    ? el("div.active-color", { id: "active-color" }, t("web.table.active_color"), colorChip(view.color), el("span.sr-only", {}, t(`core.color.${view.color}`)))
    : el("div.active-color", { id: "active-color" }, t("web.table.no_color"));
  const clockwise = view.direction === 1;
  return el("section.center", { "aria-label": t("web.table.center") },
    el("div.direction" + (clockwise ? "" : ".ccw"), { id: "direction", title: t(clockwise ? "core.direction.left" : "core.direction.right") },
      el("span.arrow", { "aria-hidden": "true" }, "\u21BB"), " ", t(clockwise ? "core.direction.left" : "core.direction.right")),
    el("div.stock-wrap", {}, stock, el("span.stock-count", { id: "stock-count" }, t("web.table.stock", { n: view.stock }))),
    el("div.pile-wrap", {}, pile, color));
}

/** The scores and hand sizes, one row per seat. */
export function renderScores(view, targetScore) {
  const rows = view.players.map((name, s) => el("tr", { class: view.to_act === s ? "to-act" : null },
    el("td", {}, view.to_act === s ? "\u25B6 " : "", name),
    el("td.num", {}, handSize(view, s)),
    el("td.num", {}, view.scores[s])));
  return el("section.panel.scores", { id: "scores" },
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, t("web.table.player")), el("th.num", {}, t("web.table.cards_h")), el("th.num", {}, t("core.scores")))), el("tbody", {}, rows)),
    el("p.sub", { style: "margin:.4em 0 0;color:var(--muted);font-size:.85em" }, t("web.table.target", { n: targetScore })));
}

/** The "who must decide" line, in the catalogue's words (core.awaiting.*). */
export function awaitingText(view) {
  if (view.awaiting === "round_over" || view.awaiting === "game_over") return t(`core.awaiting.${view.awaiting}`);
  return t(`core.awaiting.${view.awaiting}`, { name: view.players[view.to_act] ?? "" });
}
