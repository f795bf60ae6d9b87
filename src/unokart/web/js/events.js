// The core's events in the reader's words, drawn by the page: the same sentences as the
// server's (core.event.* in the catalogue, narrate.py), with every card named in words beside a
// chip in its colour and every name isolated (<bdi>), so a log reads right in every language.
import { t, tNodes, currentLanguage } from "./i18n.js";
import { cardRef, cardRefs } from "./cards.js";

// Draws the event that caused them already tells ("Banana Peel! Bob draws 2"); as narrate.py.
const TOLD_BY_CAUSE = new Set(["banana", "green_shell", "lightning", "bobomb", "uno_penalty", "challenge_lost"]);

function bdi(text) {
  const node = document.createElement("bdi");
  node.textContent = text ?? "";
  return node;
}

const colorWord = (color) => t(`core.color.${color}`);

/**
 * One event as DOM nodes for ``viewer`` (a seat or null), or null for events that say nothing
 * to a person. ``names`` are the seats' names as shown (bots in words).
 */
export function describeEvent(event, names, viewer = null) {
  const kind = event.type;
  const name = (seat) => bdi(Number.isInteger(seat) ? names[seat] ?? "" : "");
  const who = name(event.seat);
  const target = name(event.target);
  // A reveal's `to` is its challenger (a replay frame gives the seats that saw it: the challenger alone).
  const challenger = Array.isArray(event.to) ? event.to[0] : event.to;
  if (kind === "reveal" && viewer !== null && viewer === event.seat) return tNodes("core.event.reveal_own", { target: name(challenger) });
  switch (kind) {
    case "play":
      if (event.color) return tNodes("core.event.play_wild", { name: who, card: cardRef(event.card), color: colorWord(event.color) });
      return tNodes("core.event.play", { name: who, card: cardRef(event.card) });
    case "draw":
      if (TOLD_BY_CAUSE.has(event.cause)) return null;
      if (event.count === 0) return tNodes("core.event.draw_none", { name: who });
      return tNodes("web.log.draw", { name: who, n: event.count });
    case "item":
      if (event.item === null || event.item === undefined) return tNodes("core.event.item.none", { name: who });
      return tNodes(`core.event.item.${event.item}`, { name: who, card: cardRef(event.card), victim: name(event.victim) });
    case "challenge":
      return tNodes(event.guilty ? "core.event.challenge_guilty" : "core.event.challenge_innocent", { name: who, target });
    case "color":
      return tNodes("core.event.color", { name: who, color: colorWord(event.color) });
    case "first_card":
    case "jump_in":
      return tNodes(`core.event.${kind}`, { name: who, card: cardRef(event.card) });
    case "drew":
    case "reveal":
    case "hand":
    case "deal":
      return tNodes(`core.event.${kind}`, { name: who, cards: cardRefs(event.cards || [], currentLanguage()) });
    case "round_start":
      return tNodes("core.event.round_start", { round: event.round, name: name(event.dealer) });
    case "round_end":
    case "game_end":
      return tNodes(`core.event.${kind}`, { name: name(event.winner), count: event.points ?? 0 });
    default: {
      const key = `core.event.${kind}`;
      if (t(key) === key) return event.text ? [document.createTextNode(event.text)] : null; // an event this page does not know yet
      return tNodes(key, { name: who, target });
    }
  }
}
