// What moves on the table, with the Web Animations API: a played card travels from its seat to the
// pile, drawn cards travel one by one from the stock, "+N" rises beside a hand that grew, each item
// acts on the seats it hits, the direction arrow turns. Everything lasts a few hundred
// milliseconds, in a layer that takes no clicks (or on elements the views keep), so it never
// blocks a move. With prefers-reduced-motion nothing moves: the same words and numbers show still.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { cardBack, cardElement, itemSvg } from "./cards.js";
import { describeEvent } from "./events.js";

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const EASE = "cubic-bezier(.2,.8,.3,1)";
const FLY_MS = 420;
const STAGGER_MS = 140;

function layer() {
  let node = document.getElementById("fx-layer");
  if (!node) document.body.append((node = el("div.fx-layer", { id: "fx-layer", "aria-hidden": "true" })));
  return node;
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** Moves ``node`` (already in place) so that it seems to come from ``from`` (a DOMRect). */
export function flyFrom(node, from, { delay = 0, duration = FLY_MS } = {}) {
  if (reducedMotion() || !from) return null;
  const to = node.getBoundingClientRect();
  const a = centre(from), b = centre(to);
  const scale = to.width ? Math.max(0.3, Math.min(2, from.width / to.width)) : 1;
  return node.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale}) rotate(-12deg)`, opacity: 0.6 },
    { transform: "none", opacity: 1 },
  ], { duration, delay, easing: EASE, fill: "backwards" });
}

/** A node that travels in the top layer from one rect to another, then goes. */
function ghost(node, from, to, { delay = 0, duration = FLY_MS, spin = 0 } = {}) {
  if (reducedMotion() || !from || !to) return;
  const a = centre(from), b = centre(to);
  Object.assign(node.style, { left: `${a.x}px`, top: `${a.y}px` });
  node.classList.add("ghost");
  layer().append(node);
  const animation = node.animate([
    { transform: "translate(-50%, -50%)", opacity: 0 },
    { transform: "translate(-50%, -50%)", opacity: 1, offset: 0.1 },
    { transform: `translate(calc(${b.x - a.x}px - 50%), calc(${b.y - a.y}px - 50%)) rotate(${spin}deg)`, opacity: 1 },
  ], { duration, delay, easing: EASE, fill: "both" });
  animation.onfinish = animation.oncancel = () => node.remove();
}

// A card still flying in (flyFrom's animation; a style's glow or pop is not a flight).
const flying = (node) => node.getAnimations().some((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition));

/**
 * "+N" beside a seat whose hand grew (standing still under reduced motion): right of its cards (a
 * hand's box can be wider than they are), inside the screen's width. It follows the hand for its
 * short life, as an item's notice or a new row of cards moves the table.
 */
export function plusN(target, n, seat) {
  if (!target || n < 1) return;
  const badge = el("div.plus-n", { dir: "ltr", dataset: { seat } }, `+${n}`);
  document.body.append(badge);
  const place = () => {
    const cards = [...target.querySelectorAll(".card")].filter((card) => !flying(card)).map((card) => card.getBoundingClientRect()).filter((r) => r.width);
    const r = cards.length ? { right: Math.max(...cards.map((card) => card.right)), top: cards.at(-1).top } : target.getBoundingClientRect();
    const left = Math.max(4, Math.min(r.right - 8, document.documentElement.clientWidth - badge.offsetWidth - 4));
    Object.assign(badge.style, { left: `${left + scrollX}px`, top: `${r.top + 4 + scrollY}px` });
  };
  place();
  const follow = () => { if (badge.isConnected) { place(); requestAnimationFrame(follow); } };
  requestAnimationFrame(follow);
  if (reducedMotion()) { setTimeout(() => badge.remove(), 1500); return; }
  badge.animate([{ transform: "translateY(6px) scale(.6)", opacity: 0 }, { transform: "none", opacity: 1, offset: 0.2 },
    { transform: "translateY(-18px)", opacity: 0 }], { duration: 1400, easing: "ease-out", fill: "both" }).onfinish = () => badge.remove();
}

const REACTION_MS = 2000;

/** A reaction floats over its sender's seat for two seconds (standing still under reduced motion). */
export function floatReaction(target, icon, seat) {
  if (!target) return;
  const r = target.getBoundingClientRect();
  const node = el("div.reaction-float", { dataset: { seat: seat ?? "spectator", emoji: icon.dataset.emoji }, style: `left:${r.left + r.width / 2}px;top:${r.top + Math.min(r.height / 2, 40)}px` }, icon);
  layer().append(node);
  setTimeout(() => node.remove(), REACTION_MS);
  if (reducedMotion()) return;
  node.animate([{ transform: "translate(-50%, -30%) scale(.5)", opacity: 0 }, { transform: "translate(-50%, -60%) scale(1.15)", opacity: 1, offset: 0.15 },
    { transform: "translate(-50%, -110%)", opacity: 1, offset: 0.8 }, { transform: "translate(-50%, -140%)", opacity: 0 }], { duration: REACTION_MS, easing: "ease-out", fill: "both" });
}

/** A card played from ``from`` lands on the pile. */
export function cardToPile(from) {
  const top = document.getElementById("top-card");
  if (top) flyFrom(top, from);
}

/** ``count`` cards drawn from the stock by ``seat``: the new cards of one's hand, else face down to the seat's box. */
export function drawTo(seat, target, count, freshCards = []) {
  const stock = document.getElementById("stock")?.getBoundingClientRect();
  plusN(target, count, seat);
  if (freshCards.length) {
    freshCards.slice(-count).forEach((card, i) => flyFrom(card, stock, { delay: i * STAGGER_MS }));
    return;
  }
  if (!target) return;
  const to = target.getBoundingClientRect();
  for (let i = 0; i < Math.min(count, 8); i++) ghost(cardBack("sm"), stock, to, { delay: i * STAGGER_MS });
}

/** The direction arrow turns round. */
export function turnArrow() {
  const arrow = document.querySelector("#direction .arrow");
  if (!arrow || reducedMotion()) return;
  arrow.animate([{ rotate: "-360deg", scale: "1.5" }, { rotate: "0deg", scale: "1" }], { duration: 600, easing: EASE });
}

const SEAT_MOVES = {
  banana: [{ transform: "none" }, { transform: "translateX(-10px) rotate(-8deg)" }, { transform: "translateX(12px) rotate(10deg)" }, { transform: "translateX(-4px) rotate(-3deg)" }, { transform: "none" }],
  mushroom: [{ transform: "none" }, { transform: "scale(1.12) translateY(-6px)", filter: "brightness(1.4)" }, { transform: "none" }],
  lightning: [{ filter: "none" }, { filter: "brightness(2.2) saturate(0)", transform: "scale(.94)" }, { filter: "none", transform: "none" }],
  bobomb: [{ transform: "none" }, { transform: "scale(1.08) rotate(2deg)", filter: "brightness(1.6) sepia(1)" }, { transform: "translate(-3px, 2px)" }, { transform: "none" }],
  hit: [{ transform: "none" }, { transform: "translateX(-6px)" }, { transform: "translateX(6px)" }, { transform: "none" }],
};

/** A seat's box reacts to what hit it (its element stays: a new state does not cut this). */
export function shakeSeat(node, move, delay = 0) {
  if (!node || reducedMotion()) return;
  node.animate(SEAT_MOVES[move], { duration: 520, delay, easing: "ease-in-out" });
}

function icon(item, size = 44) {
  const node = el("div.fx-icon");
  node.innerHTML = itemSvg(item, size);
  return node;
}

/**
 * An item's effect on the seats it hits. ``seatNode(seat)`` gives a seat's element; ``others``
 * are the seats a Lightning Bolt strikes.
 */
export function itemOnSeats(moment, seatNode, others) {
  const from = seatNode(moment.seat)?.getBoundingClientRect();
  const pile = document.getElementById("pile")?.getBoundingClientRect();
  if (moment.item === "banana") {
    const victim = seatNode(moment.victim);
    ghost(icon("banana"), pile, victim?.getBoundingClientRect(), { spin: 300 });
    shakeSeat(victim, "banana", 300);
  } else if (moment.item === "lightning") {
    for (const seat of others) {
      const node = seatNode(seat);
      const r = node?.getBoundingClientRect();
      if (r) ghost(icon("lightning"), new DOMRect(r.left, r.top - 80, r.width, 10), r, { duration: 300 });
      shakeSeat(node, "lightning", 250);
    }
  } else if (moment.item === "mushroom") {
    ghost(icon("mushroom"), pile, from);
    shakeSeat(seatNode(moment.seat), "mushroom", 250);
  } else if (moment.item === "bobomb") {
    ghost(icon("bobomb"), pile, from);
    burst(from, 380);
    shakeSeat(seatNode(moment.seat), "bobomb", 350);
  }
}

/** A Bob-omb's blast: a ring of fire that grows and fades over the seat. */
function burst(rect, delay) {
  if (reducedMotion() || !rect) return;
  const { x, y } = centre(rect);
  const blast = el("div.burst", { style: `left:${x}px;top:${y}px` });
  layer().append(blast);
  blast.animate([{ transform: "translate(-50%, -50%) scale(.2)", opacity: 1 }, { transform: "translate(-50%, -50%) scale(2.4)", opacity: 0 }],
    { duration: 520, delay, easing: "ease-out", fill: "both" }).onfinish = () => blast.remove();
}

/** The Green Shell flies from its thrower to its target, who is hit. */
export function shellToTarget(moment, seatNode) {
  const target = seatNode(moment.target);
  ghost(icon("green_shell"), seatNode(moment.seat)?.getBoundingClientRect(), target?.getBoundingClientRect(), { spin: 720, duration: 520 });
  shakeSeat(target, "hit", 450);
}

// ------------------------------------------------------------------ the item's explanation

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const sameRect = (a, b) => ["left", "top", "width", "height"].every((side) => Math.abs(a[side] - b[side]) < 1);
// The part of a rect the player sees: inside the window, below the sticky top bar.
function seen(r) {
  const top = Math.max(r.top, document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0);
  const bottom = Math.min(r.bottom, innerHeight), left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  return { left, top, right, bottom, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}
const controlRects = (screen) => [...screen.querySelectorAll("button:not(:disabled), select, input, a[href]")]
  .map((node) => node.getBoundingClientRect()).filter((r) => r.width && r.height);

/**
 * The item's name and what it did, for 2.3 s, over the part of the table in sight where nothing can
 * be clicked now and where all of it fits (the pile, the opponents, the log); with no such part, a
 * line under the prompt. Never clipped: a part too small for the words is not chosen.
 */
export function showItemNotice(screen, moment, names, viewer) {
  const icons = el("div.icons", {}, cardElement(moment.card));
  icons.insertAdjacentHTML("beforeend", itemSvg(moment.item, 64));
  const fx = el("div.item-fx", { id: "item-fx", role: "status", dataset: { item: moment.item } },
    el("div.box", {}, icons, el("div.name", {}, t(`core.item.${moment.item}`)), el("div.what", {}, describeEvent(moment.event, names, viewer) || "")));
  document.getElementById("item-fx")?.remove();
  document.body.append(fx);
  placeNotice(screen);
  keepPlaced(screen, fx);
  setTimeout(() => fx.remove(), 2300);
}

/**
 * The table can move under a placed notice with no new state: a script's font arrives and its words
 * wrap again, a list scrolls. Each frame while the notice shows, a notice that no longer matches its
 * part of the table, or that now covers a control, is placed again.
 */
function keepPlaced(screen, fx) {
  const watch = () => {
    if (!fx.isConnected) return;
    if (!fx.classList.contains("inline") && !stillFree(screen, fx)) placeNotice(screen);
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

function stillFree(screen, fx) {
  const spot = fx.dataset.spot && screen.querySelector(fx.dataset.spot);
  const place = fx.getBoundingClientRect();
  return Boolean(spot) && sameRect(seen(spot.getBoundingClientRect()), place) && wordsFit(fx) && !controlRects(screen).some((c) => overlaps(place, c));
}

// The whole box, its border included (scrollHeight leaves the border out), inside its place, and no word
// wider than the box.
function wordsFit(fx) {
  const box = fx.firstElementChild;
  return box.offsetHeight <= fx.clientHeight && box.offsetWidth <= fx.clientWidth
    && box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight;
}

/** The Green Shell's victim is chosen after it is turned: the notice says whom it hit. */
export function addToNotice(words, screen) {
  const what = document.querySelector("#item-fx .what");
  if (!what) return;
  what.append(el("div", {}, words));
  placeNotice(screen);
}

export function placeNotice(screen) {
  const fx = document.getElementById("item-fx");
  if (!fx) return;
  const controls = controlRects(screen);
  fx.classList.remove("inline");
  if (fx.parentNode !== document.body) document.body.append(fx);
  for (const selector of ["#game .center", "#game .opponents", "#game .side .log"]) {
    const part = screen.querySelector(selector);
    const spot = part && seen(part.getBoundingClientRect());
    if (!spot || spot.height < 100 || spot.width < 200 || controls.some((c) => overlaps(spot, c))) continue;
    Object.assign(fx.style, { left: `${spot.left + scrollX}px`, top: `${spot.top + scrollY}px`, width: `${spot.width}px`, height: `${spot.height}px` });
    fx.dataset.spot = selector;
    if (wordsFit(fx)) return;
  }
  fx.classList.add("inline"); // no free place where it fits: a line under the prompt, covering nothing
  fx.removeAttribute("style");
  delete fx.dataset.spot;
  screen.querySelector("#prompt")?.after(fx);
}
