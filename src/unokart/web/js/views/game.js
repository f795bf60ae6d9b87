// The table while a game is played: opponents, the centre (direction, stock, pile), the prompt,
// the decision, the hand, the scores and the log. The page is built once; each state then
// updates only the parts whose content changed (each part keeps a key of what it shows), and the
// hand keeps its card elements, so a card's animation is never cut off by the next message.
import { t, tNodes } from "../i18n.js";
import { el } from "../ui.js";
import { cardElement, cardName, cardRef, COLOR_SHAPE, COLORS, sortHand } from "../cards.js";
import { awaitingText, directionEl, handSize, layoutHand, nameEl, opponentBox, pileEl, renderScores, seatsAfter, stockEl } from "../board.js";
import { legalOf } from "../state.js";
import { ChatPanel } from "./chat.js";

/** Gives ``node`` the attributes and children of ``build()`` when ``key`` differs from the last one. */
function sync(node, key, build) {
  if (node.__key === key) return false;
  node.__key = key;
  const fresh = build();
  for (const attr of [...node.attributes]) if (!fresh.hasAttribute(attr.name)) node.removeAttribute(attr.name);
  for (const attr of fresh.attributes) node.setAttribute(attr.name, attr.value);
  node.replaceChildren(...fresh.childNodes);
  return true;
}

const key = (...parts) => JSON.stringify(parts);

/** The countdown ring of a turn timer: drawn by tick() from data-at (ms) and data-total (ms). */
function ringEl(deadline, totalSeconds) {
  const ring = el("span.turn-ring", { "aria-hidden": "true", dataset: { at: deadline.at, total: totalSeconds * 1000 } });
  ring.innerHTML = '<svg viewBox="0 0 20 20"><circle class="track" cx="10" cy="10" r="8"/><circle class="left" cx="10" cy="10" r="8" pathLength="100"/></svg>';
  return ring;
}

/**
 * The game's view. ``ctx`` acts for the player: send(action), sendVerb(verb), chooseCard(code),
 * chooseColor(color), pressUno(), cancelPicker(); ``log`` is the log's element (kept by the page).
 */
export class GameView {
  constructor(screen, ctx, log) {
    this.ctx = ctx;
    this.opponents = el("section.opponents", { "aria-label": t("web.table.opponents") });
    this.direction = el("div.direction", { id: "direction" });
    this.stock = el("div.stock-wrap");
    this.pile = el("div.pile-wrap");
    const center = el("section.center", { "aria-label": t("web.table.center") }, this.direction, this.stock, this.pile);
    this.prompt = el("div.prompt", { id: "prompt" });
    this.decision = el("div.decision", { id: "decision" });
    this.hand = el("div.hand", { id: "hand", dir: "ltr", role: "group" });
    this.handArea = el("section.hand-area", {}, this.hand);
    this.board = el("div.board", {}, this.opponents, center, this.prompt, this.decision);
    this.scores = el("section.panel.scores", { id: "scores" });
    this.chat = new ChatPanel(ctx); // reactions and the table's chat, beside the scores and the log
    const side = el("aside.side", {}, this.scores, this.chat.element, el("section.panel", {}, el("h2", {}, t("web.table.log")), log));
    this.element = el("div.game", { id: "game" }, this.board, side);
    this.boxes = new Map(); // seat -> its opponent box, kept while the seats stay
    screen.replaceChildren(this.element);
    window.scrollTo(0, 0); // the table from its top (the waiting room's Start may have been scrolled to)
  }

  /** Draws ``state`` (names: the seats' names as shown). Returns the hand's new cards and whether the direction turned. */
  update(state, names) {
    const view = { ...state.view, players: names };
    const me = state.seat;
    const sizes = view.hands.map((h) => (Array.isArray(h) ? h.length : h));
    Object.assign(this.element.dataset, { awaiting: view.awaiting, mine: String(view.to_act === me && me !== null), version: state.version, round: view.round });
    this.updateOpponents(state, view);
    const turned = sync(this.direction, key(view.direction), () => directionEl(view)) && this.direction.__shown;
    this.direction.__shown = true;
    const canDraw = legalOf(state, "draw").length > 0;
    sync(this.stock, key(view.stock, canDraw), () => stockEl(view, { canDraw, onDraw: () => this.ctx.sendVerb("draw") }));
    sync(this.pile, key(view.top, view.color, view.discard > 1), () => pileEl(view));
    sync(this.prompt, key(view.to_act, view.awaiting, view.pending, view.drawn, names, me, state.deadline, me !== null && state.seats[me]?.away), () => promptEl(state, view));
    sync(this.decision, key(state.legal.map((a) => a.text), state.picker, state.reveal, view.awaiting, view.pending, view.drawn, names, sizes), () => decisionEl(state, view, this.ctx));
    sync(this.scores, key(names, sizes, view.scores, view.to_act, state.table?.options?.target_score), () => renderScores(view, state.table?.options?.target_score ?? ""));
    this.chat.update(state);
    let fresh = [];
    if (me !== null) {
      if (!this.handArea.isConnected) this.board.append(this.handArea);
      this.updateHandTools(state, view);
      fresh = updateHand(this.hand, state, view, this.ctx);
    } else this.handArea.remove();
    return { fresh, turned };
  }

  updateOpponents(state, view) {
    const seats = seatsAfter(state.seat, view.players.length);
    if ([...this.boxes.keys()].join() !== seats.join()) {
      this.boxes.clear();
      for (const s of seats) this.boxes.set(s, el("div.opp"));
      this.opponents.replaceChildren(...this.boxes.values());
    }
    const catchable = new Map(legalOf(state, "catch").map((a) => [a.target, a]));
    const picks = new Map([...legalOf(state, "target"), ...legalOf(state, "swap")].map((a) => [a.target, a]));
    const totalTimer = state.table?.turn_timer;
    const button = (spec, attrs, action, label) => el(spec, { type: "button", ...attrs, onclick: () => this.ctx.send(action) }, label);
    for (const [s, box] of this.boxes) {
      const ticking = state.deadline && state.deadline.seat === s && totalTimer ? state.deadline : null;
      sync(box, key(view.players[s], handSize(view, s), view.scores[s], view.uno_said[s], view.to_act === s, view.dealer === s, state.seats[s],
        catchable.get(s)?.text, picks.get(s)?.text, ticking), () => opponentBox(view, s, {
        me: state.seat, seatInfo: state.seats, ring: ticking ? ringEl(ticking, totalTimer) : null,
        extra: (seat) => [
          catchable.has(seat) ? button("button.btn.btn-danger.btn-small.catch", { dataset: { catch: seat } }, catchable.get(seat), t("web.table.catch")) : null,
          picks.has(seat) ? button("button.btn.btn-primary.btn-small", { dataset: { pick: seat } }, picks.get(seat), t(`web.table.pick_${picks.get(seat).verb}`)) : null,
        ],
      }));
    }
  }

  /** The line over the hand (who you are, the shortcuts), the UNO button and its hint; the hand itself stays. */
  updateHandTools(state, view) {
    const sayNow = legalOf(state, "uno").length > 0;
    const unoPossible = sayNow || state.legal.some((a) => a.uno);
    const jumping = state.legal.some((a) => a.verb === "jump");
    const k = key(view.players[state.seat], jumping, sayNow, unoPossible, state.unoArmed);
    if (this.handArea.__key === k) return;
    this.handArea.__key = k;
    const uno = unoPossible ? el(`button.uno-btn${state.unoArmed ? ".armed" : ""}`, {
      type: "button", id: "uno-btn", onclick: this.ctx.pressUno, "aria-pressed": String(state.unoArmed),
      title: sayNow ? t("web.table.uno_say") : t("web.table.uno_arm"),
    }, "UNO!") : null;
    const parts = [
      el("div.hand-tools", {},
        el("span.me", {}, tNodes("web.table.you_are", { name: nameEl(view.players[state.seat]) })),
        jumping ? el("span.badge", {}, t("web.table.jump_in")) : null,
        el("span.shortcuts", {}, el("kbd", {}, "\u2190\u2192"), el("kbd", {}, "Enter"), " ", t("web.keys.play"), " · ", el("kbd", {}, "D"), " ", t("web.keys.draw"), " · ", el("kbd", {}, "U"), " UNO · ", el("kbd", {}, "?"))),
      uno ? el("div.uno-wrap", {}, uno) : null,
      unoPossible && !sayNow ? el("p.shortcuts", { style: "display:block" }, state.unoArmed ? t("web.table.uno_armed") : t("web.table.uno_hint")) : null,
    ].filter(Boolean);
    for (const child of [...this.handArea.children]) if (child !== this.hand) child.remove();
    this.hand.before(...parts);
  }

  /** The seat's place on the table: its opponent box, or the hand for the reader's own seat. */
  seatNode(seat) {
    if (seat === null) return this.element.querySelector(".center"); // a spectator's reaction: over the table's middle
    return this.boxes.get(seat) ?? (this.handArea.isConnected ? this.hand : null);
  }
}

function promptEl(state, view) {
  const mine = view.to_act === state.seat && state.seat !== null;
  const text = mine ? t(`web.prompt.${view.awaiting}`, { n: view.pending, card: view.drawn ? cardName(view.drawn) : "" }) : awaitingText(view);
  const total = state.table?.turn_timer;
  const timer = el("span.timer", { id: "timer" }, state.deadline && total ? ringEl(state.deadline, total) : null, el("span.secs", { dataset: { at: state.deadline?.at ?? "" } }));
  const away = state.seat !== null && state.seats[state.seat]?.away;
  return el(`div.prompt${mine ? ".mine" : ""}`, { id: "prompt", role: "status" }, text, timer,
    away ? el("div.away-note", { id: "away-note" }, t("web.table.you_are_away")) : null);
}

function colorChoices(box, state, ctx) {
  box.append(el("div.title", {}, state.picker ? tNodes("web.table.color_for", { card: cardRef(state.picker.card) }) : t("web.table.choose_color")));
  for (const color of COLORS) {
    box.append(el(`button.color-btn.${color}`, { type: "button", dataset: { color }, onclick: () => ctx.chooseColor(color) },
      el("span.shape", { "aria-hidden": "true" }, COLOR_SHAPE[color]), " ", t(`core.color.${color}`)));
  }
  if (state.picker) box.append(el("button.btn.btn-ghost", { type: "button", onclick: ctx.cancelPicker }, t("web.cancel")));
  return box;
}

function decisionEl(state, view, ctx) {
  const box = el("div.decision", { id: "decision" });
  if (state.reveal) {
    box.append(el("div.title", {}, tNodes("web.table.revealed", { name: nameEl(view.players[state.reveal.seat]) })),
      el("div.reveal", { id: "reveal" }, sortHand(state.reveal.cards).map(({ code }) => cardElement(code, { size: "md" }))));
  }
  if (state.picker || legalOf(state, "color").length) return colorChoices(box, state, ctx);
  const action = (verb, label, keyName, extraClass = "") => (legalOf(state, verb).length
    ? el(`button.btn${extraClass}`, { type: "button", dataset: { verb }, onclick: () => ctx.sendVerb(verb) }, label, " ", el("kbd", {}, keyName)) : null);
  if (view.awaiting === "drawn" && view.to_act === state.seat && view.drawn) {
    box.append(el("button.btn.btn-primary", { type: "button", dataset: { verb: "play-drawn" }, onclick: () => ctx.chooseCard(view.drawn) }, t("web.table.play_drawn", { card: cardName(view.drawn) }), " ", el("kbd", {}, "Enter")));
  }
  box.append(...[
    action("draw", t("web.table.draw"), "D"),
    action("pass", t("web.table.keep"), "P"),
    action("challenge", t("web.table.challenge"), "C", ".btn-danger"),
    action("accept", t(view.awaiting === "challenge" ? "web.table.accept_four" : "web.table.accept_n", { n: view.pending }), "A"),
  ].filter(Boolean));
  const targets = [...legalOf(state, "target"), ...legalOf(state, "swap")];
  if (targets.length) {
    box.append(el("div.title", {}, t(`web.table.choose_${targets[0].verb}`)));
    targets.forEach((a, i) => box.append(el("button.btn.btn-primary", { type: "button", dataset: { target: a.target }, onclick: () => ctx.send(a) },
      tNodes("web.table.target_btn", { name: nameEl(view.players[a.target]), n: handSize(view, a.target) }), " ", el("kbd", {}, i + 1))));
  }
  return box;
}

function newCard(code, cardKey, ctx) {
  const card = cardElement(code, { tag: "button" });
  card.type = "button";
  card.dataset.key = cardKey;
  card.addEventListener("click", () => ctx.chooseCard(code));
  return card;
}

/** The hand's cards, each element kept while its card stays; returns the new ones (drawn or dealt). */
function updateHand(hand, state, view, ctx) {
  const codes = view.hands[state.seat];
  const playable = new Set(state.legal.filter((a) => a.verb === "play" || a.verb === "jump").map((a) => a.card));
  const myTurn = view.to_act === state.seat;
  const old = new Map([...hand.children].map((node) => [node.dataset.key, node]));
  const focused = hand.contains(document.activeElement) ? Number(document.activeElement.dataset.handIndex) : null;
  const seen = {};
  const fresh = [];
  const cards = sortHand(codes).map(({ code }, position) => {
    seen[code] = (seen[code] ?? -1) + 1;
    const cardKey = `${code}#${seen[code]}`; // the same card twice: each its own element
    let card = old.get(cardKey);
    if (card) old.delete(cardKey);
    else fresh.push((card = newCard(code, cardKey, ctx)));
    card.dataset.handIndex = position;
    card.classList.remove("playable", "dim", "waiting", "drawn-new");
    card.classList.add(playable.has(code) ? "playable" : myTurn ? "dim" : "waiting");
    if (view.drawn === code && view.awaiting === "drawn") card.classList.add("drawn-new");
    card.querySelector(".key")?.remove();
    if (position < 10) card.append(el("span.key", { "aria-hidden": "true" }, (position + 1) % 10));
    return card;
  });
  for (const node of old.values()) node.remove();
  cards.forEach((card, i) => { if (hand.children[i] !== card) hand.insertBefore(card, hand.children[i] ?? null); });
  hand.setAttribute("aria-label", t("web.table.your_hand", { n: codes.length }));
  layoutHand(hand);
  if (focused !== null && !hand.contains(document.activeElement)) cards[Math.min(focused, cards.length - 1)]?.focus();
  return fresh;
}

/** The turn timer's words and rings, once the clock has moved (called a few times a second). */
export function tick(root, now) {
  for (const secs of root.querySelectorAll("#timer .secs")) {
    const at = Number(secs.dataset.at);
    secs.textContent = at ? ` · ${t("web.table.seconds_left", { s: Math.max(0, Math.ceil((at - now) / 1000)) })}` : "";
  }
  for (const ring of root.querySelectorAll(".turn-ring")) {
    const left = Math.max(0, Math.min(1, (Number(ring.dataset.at) - now) / Number(ring.dataset.total)));
    ring.style.setProperty("--left", String(Math.round(left * 1000) / 10));
    ring.classList.toggle("late", left < 0.25);
  }
}
