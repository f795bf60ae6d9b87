// Cards as the page draws them: NOTATION.md codes ("R5", "G+2", "W+4", "WIB") to DOM.
// Every card carries its colour as a shape too (▲ ● ■ ◆), for colour-blind players: a shape reads
// the same in every language, where an English initial would not.
import { t } from "./i18n.js";

export const COLORS = ["R", "Y", "G", "B"];
export const COLOR_SHAPE = { R: "\u25B2", Y: "\u25CF", G: "\u25A0", B: "\u25C6" }; // ▲ ● ■ ◆
const RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];
const RANK_GLYPH = { S: "\u2298", R: "\u21C4", "+2": "+2" }; // ⊘ ⇄
const ITEM_OF_COLOR = { R: "mushroom", Y: "banana", G: "green_shell", B: "lightning", W: "bobomb" };

// R1.4: the item in each card's lower left corner, drawn inline (no emoji font needed).
const ITEM_SVG = {
  mushroom: '<path d="M2.5 13a9.5 9 0 0 1 19 0z" fill="#e63946" stroke="#5a0d12" stroke-width="1"/><circle cx="8" cy="8.5" r="2" fill="#fff"/><circle cx="15.5" cy="8" r="2.3" fill="#fff"/><circle cx="12" cy="4.6" r="1.2" fill="#fff"/><rect x="7.5" y="13" width="9" height="8" rx="3" fill="#f6e7c8" stroke="#5a4a2a" stroke-width="1"/><rect x="10" y="15" width="1.2" height="3" fill="#222"/><rect x="12.8" y="15" width="1.2" height="3" fill="#222"/>',
  banana: '<path d="M5 4c-1 7 2 14 12 16 2 .4 3-1 1-2-7-2-10-7-9.5-14z" fill="#ffd60a" stroke="#6b5300" stroke-width="1.2" stroke-linejoin="round"/><path d="M5 4l-.5-2 1.8.3z" fill="#6b5300"/>',
  green_shell: '<ellipse cx="12" cy="13" rx="10" ry="8.5" fill="#f4f4f4" stroke="#1d4d2b" stroke-width="1"/><ellipse cx="12" cy="12" rx="8" ry="6.8" fill="#22b14c" stroke="#1d4d2b" stroke-width="1"/><path d="M12 7.5l3 2v3.5l-3 2-3-2V9.5z" fill="#8be0a4" stroke="#1d4d2b" stroke-width=".8"/>',
  lightning: '<path d="M13.5 1.5L4 13.5h6.5L8.5 22.5 20 9h-7l2.5-7.5z" fill="#ffd60a" stroke="#4a3b00" stroke-width="1.2" stroke-linejoin="round"/>',
  bobomb: '<circle cx="11" cy="14" r="8" fill="#1c1c1c" stroke="#000" stroke-width=".8"/><path d="M15.5 7.5q2-4 5-3" fill="none" stroke="#8a6d3b" stroke-width="1.6"/><path d="M20.5 2.5l.7 1.6 1.6.2-1.3 1 .4 1.6-1.4-.9-1.4.9.4-1.6-1.3-1 1.6-.2z" fill="#ff9f1c"/><ellipse cx="8.5" cy="12.5" rx="1.3" ry="2.2" fill="#fff"/><ellipse cx="12.5" cy="12.5" rx="1.3" ry="2.2" fill="#fff"/><rect x="15.5" y="9" width="3" height="2" rx=".6" fill="#bbb" transform="rotate(35 17 10)"/>',
};

/** One item icon as an SVG string. */
export function itemSvg(item, size = 24) {
  return `<svg class="item-svg" viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true">${ITEM_SVG[item] || ""}</svg>`;
}

/** A card code split into colour letter ("W" for a wild) and rank ("5", "S", "R", "+2", "+4", "IB"). */
export function parseCode(code) {
  if (code === "W+4") return { color: "W", rank: "+4" };
  if (code === "WIB") return { color: "W", rank: "IB" };
  return { color: code[0], rank: code.slice(1) };
}

/** Sorting key: colour, then number, then Skip/Reverse/Draw Two; wilds last. */
function sortKey(code) {
  const { color, rank } = parseCode(code);
  if (color === "W") return 100 + (rank === "+4" ? 0 : 1);
  return COLORS.indexOf(color) * 20 + RANKS.indexOf(rank);
}

export function sortHand(codes) {
  return codes.map((code, index) => ({ code, index })).sort((a, b) => sortKey(a.code) - sortKey(b.code) || a.index - b.index);
}

/** The card's name in words, through the catalogue's core.card.* keys. */
export function cardName(code) {
  const { color, rank } = parseCode(code);
  if (rank === "+4") return t("core.card.wild_draw_four");
  if (rank === "IB") return t("core.card.wild_item_box");
  const colorName = t(`core.color.${color}`);
  if (rank === "S") return t("core.card.skip", { color: colorName });
  if (rank === "R") return t("core.card.reverse", { color: colorName });
  if (rank === "+2") return t("core.card.draw_two", { color: colorName });
  return t("core.card.number", { color: colorName, number: rank });
}

function centreGlyph(color, rank) {
  if (color === "W") return rank === "+4" ? "+4" : "?";
  return RANK_GLYPH[rank] || (/^[0-9]$/.test(rank) ? rank : "?"); // only known glyphs reach innerHTML
}

/**
 * A card element. ``tag`` is "button" for a card one can choose, "div" otherwise.
 * The chosen colour of a wild on the pile is shown by ``activeColor``.
 */
export function cardElement(code, { tag = "div", size = "", activeColor = null } = {}) {
  const { color, rank } = parseCode(code);
  const el = document.createElement(tag);
  el.className = `card card-${color}${size ? " card-" + size : ""}`;
  el.dataset.code = code;
  el.dir = "ltr"; // a card face reads the same in a right-to-left page ("+2", not "2+")
  const glyph = centreGlyph(color, rank);
  const shape = COLOR_SHAPE[color] ?? "";
  // Rank, colour shape and item sit on the left edge, so they stay readable when cards overlap.
  const corner = rank === "6" || rank === "9" ? `<u>${glyph}</u>` : glyph; // a 6 upside down is not a 9
  el.innerHTML =
    `<span class="card-corner card-tl">${corner}${shape ? `<span class="card-letter">${shape}</span>` : ""}</span>` +
    `<span class="card-oval"><span class="card-glyph${rank === "IB" ? " card-box" : ""}">${glyph}</span></span>` +
    `<span class="card-item">${itemSvg(ITEM_OF_COLOR[color], 16)}</span>` +
    `<span class="card-corner card-br">${corner}</span>`;
  if (activeColor && color === "W") {
    el.classList.add(`wild-as-${activeColor}`);
  }
  el.setAttribute(tag === "button" ? "aria-label" : "title", cardName(code));
  if (tag !== "button") el.setAttribute("role", "img"), el.setAttribute("aria-label", cardName(code));
  return el;
}

/** A face-down card (hand sizes, the stock). */
export function cardBack(size = "") {
  const el = document.createElement("div");
  el.className = `card card-back${size ? " card-" + size : ""}`;
  el.dir = "ltr";
  el.setAttribute("aria-hidden", "true");
  el.innerHTML = '<span class="card-back-logo">UNO<small>kart</small></span>';
  return el;
}

/** A colour swatch: its shape, then its name in the reader's words (the active-colour badge). */
export function colorChip(color) {
  const el = document.createElement("span");
  el.className = `chip chip-${color}`;
  const shape = document.createElement("span");
  shape.className = "shape";
  shape.setAttribute("aria-hidden", "true");
  shape.textContent = COLOR_SHAPE[color];
  el.append(shape, " ", t(`core.color.${color}`));
  return el;
}

/**
 * A card named in a sentence (logs, replays, summaries): a small chip in the card's colour with
 * its face, then its name in words. The chip is drawn by CSS from data attributes, so the
 * sentence's text (innerText, screen readers) is the name alone.
 */
export function cardRef(code) {
  const { color, rank } = parseCode(code);
  const ref = document.createElement("span");
  ref.className = "card-ref";
  ref.dataset.code = code;
  const chip = document.createElement("span");
  chip.className = `card-chip card-${color}`;
  chip.dir = "ltr";
  chip.setAttribute("aria-hidden", "true");
  chip.dataset.face = color === "W" ? (rank === "+4" ? "+4" : "?") : centreGlyph(color, rank);
  chip.dataset.letter = color;
  const name = document.createElement("bdi");
  name.textContent = cardName(code);
  ref.append(chip, name);
  return ref;
}

/** Several cards in a sentence, separated by the language's list punctuation. */
export function cardRefs(codes, lang) {
  const box = document.createElement("span");
  box.className = "card-refs";
  if (!codes.length) { box.textContent = "\u2013"; return box; }
  // Intl.ListFormat gives "a, b and c" in the reader's language; its parts are filled with the chips.
  let next = 0;
  for (const part of new Intl.ListFormat(lang || "en", { style: "short", type: "unit" }).formatToParts(codes)) {
    box.append(part.type === "element" ? cardRef(codes[next++]) : document.createTextNode(part.value));
  }
  return box;
}
