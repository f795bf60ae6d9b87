// The page's texts: the same catalogue as the Python side (i18n/<lang>/*.json, keys "domain.key").
//
// Plural forms: a message that depends on a number has one key per CLDR plural category of
// its language, "key.one", "key.other" (and "key.zero", "key.two", "key.few", "key.many" where a
// language has them). t("web.n_cards", {n: 3}) picks the category with Intl.PluralRules for the
// page's language from the field `n` (or `count`), and falls back to "key.other".
let messages = {};
let english = {};
let plurals = new Intl.PluralRules("en");

export const LANGUAGES = { en: "English", ta: "\u0ba4\u0bae\u0bbf\u0bb4\u0bcd", kn: "\u0c95\u0ca8\u0ccd\u0ca8\u0ca1", te: "\u0c24\u0c46\u0c32\u0c41\u0c17\u0c41", sd: "\u0633\u0646\u068c\u064a" };
export const RTL = new Set(["sd"]);

async function fetchCatalogue(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`catalogue ${lang}: HTTP ${response.status}`);
  return response.json();
}

/** Load English (the fallback) and the chosen language. */
export async function loadLanguage(lang) {
  english = await fetchCatalogue("en");
  messages = lang === "en" ? english : await fetchCatalogue(lang).catch(() => english);
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
}

function lookup(key) {
  return messages[key] ?? english[key];
}

/** The message ``key`` with its {fields} filled in; a missing key shows itself (never a crash). */
export function t(key, fields = {}) {
  let text = lookup(key);
  if (text === undefined) {
    const count = fields.n ?? fields.count;
    if (typeof count === "number" && lookup(`${key}.other`) !== undefined) {
      text = lookup(`${key}.${plurals.select(count)}`) ?? lookup(`${key}.other`);
    }
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/**
 * The message ``key`` as DOM nodes: each {field} given as a Node (a card with its chip, an
 * isolated name) is put in place; other fields are text. The page's direction is kept
 * right because every inserted node isolates itself.
 */
export function tNodes(key, fields = {}) {
  const textFields = {};
  for (const [name, value] of Object.entries(fields)) if (!(value instanceof Node)) textFields[name] = value;
  const text = t(key, textFields);
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (!(fields[match[1]] instanceof Node)) continue;
    if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
    nodes.push(fields[match[1]].cloneNode(true));
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** Fill every [data-t] element of a subtree (static page texts). */
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  for (const el of root.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
}

export const currentLanguage = () => document.documentElement.lang || "en";

/** A bot level ("heuristic", "ismcts:200", "ismcts:150ms") in the lobby's words ("good", "strong"). */
export function levelName(level) {
  const base = String(level || "").split(":")[0];
  const key = `web.level.${base}`;
  return lookup(key) !== undefined ? t(key) : base;
}

/**
 * The names to show for a table's seats: players by the name they chose, bots by their
 * level in the reader's language (the server's own "Bot 2 (heuristic)" is English).
 */
export function seatNames(players, seats = []) {
  return players.map((name, index) => {
    const seat = seats[index];
    return seat && seat.kind === "bot" && seat.level ? t("web.bot_name", { n: index + 1, level: levelName(seat.level) }) : name;
  });
}

// The server names a bot "Bot {index} ({level})" with its seat's index (from 0) and the level in the
// lobby's English words ("good", "strong:200"; server.bot_name); a finished game's record keeps only
// that name. The page recognises it (the level by its English word, or by its own name in older
// records) to show the bot as the live table does: numbered from 1, its level in the reader's words.
const RECORDED_BOT = /^Bot (\d+) \(([^():]+)(:[A-Za-z0-9_-]+)?\)$/; // a budget ("200", "150ms") or a policy ("trained")

/** The level ("heuristic") a recorded word ("good", or "heuristic" itself) names, or null. */
function recordedLevel(word) {
  for (const [key, value] of Object.entries(english)) {
    if (!key.startsWith("web.level.")) continue;
    const level = key.slice("web.level.".length);
    if (word === value || word === level) return level;
  }
  return null;
}

/** Names from a game record, recorded bots shown as in seatNames. */
export function recordedNames(players) {
  return players.map((name) => {
    const bot = RECORDED_BOT.exec(name);
    const level = bot && recordedLevel(bot[2]);
    return level ? t("web.bot_name", { n: Number(bot[1]) + 1, level: levelName(level) }) : name;
  });
}
