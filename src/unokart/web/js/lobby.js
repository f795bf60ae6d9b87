// The lobby: create a table, join one by code, watch one, open a finished game's replay.
import { t, tNodes, recordedNames, levelName } from "./i18n.js";
import { api, tokenKey } from "./net.js";
import { el, showError, navigate } from "./ui.js";
import { cardElement } from "./cards.js";

// The ladder of levels, weakest first: the same list as unokart.levels.LADDER (a test holds them equal).
export const BOT_LEVELS = ["random", "easy", "heuristic", "policy:trained", "careful", "ismcts"];
const HOUSE_RULES = ["stacking", "draw_until_playable", "force_play", "jump_in", "seven_zero"];
const TIMERS = [null, 15, 30, 60, 120];

export const savedName = () => localStorage.getItem("unokart.name") || "";
// A name has at most 24 characters (docs/PROTOCOL.md), counted as the server counts them: an emoji is one,
// two UTF-16 units, and a family emoji joined by U+200D several; an input's maxlength counts units (two at most a character).
export const MAX_NAME = 24;
export const nameTooLong = (name) => [...name].length > MAX_NAME;
export const saveName = (name) => localStorage.setItem("unokart.name", name);

function seatChoices(seat, chosen) {
  const select = el("select", { name: `seat-${seat}`, "aria-label": t("web.lobby.seat_n", { n: seat + 1 }) });
  select.append(new Option(t("web.lobby.seat_open"), "open"));
  for (const level of BOT_LEVELS) select.append(new Option(t("web.lobby.bot_level", { level: levelName(level) }), level));
  select.value = chosen;
  return select;
}

function createPanel() {
  const name = el("input", { type: "text", name: "name", dir: "auto", maxlength: 2 * MAX_NAME, required: true, autocomplete: "nickname", value: savedName(), placeholder: t("web.lobby.name_placeholder") });
  const seats = el("select", { name: "seats" });
  for (let n = 2; n <= 10; n++) seats.append(new Option(String(n), String(n), false, n === 4));
  const seatRows = el("div.seat-rows");
  const choices = [];
  const drawSeats = () => {
    const count = Number(seats.value);
    seatRows.replaceChildren(el("div.seat-row", {}, el("span", {}, t("web.lobby.seat_n", { n: 1 })), el("strong", {}, t("web.lobby.seat_you"))));
    for (let s = 1; s < count; s++) {
      choices[s] ??= seatChoices(s, s === 1 ? "open" : "easy");
      seatRows.append(el("div.seat-row", {}, el("span", {}, t("web.lobby.seat_n", { n: s + 1 })), choices[s]));
    }
  };
  seats.addEventListener("change", drawSeats);
  drawSeats();

  const target = el("input", { type: "number", name: "target_score", min: 1, max: 100000, value: 500 });
  const handSize = el("input", { type: "number", name: "hand_size", min: 1, max: 15, value: 7 });
  const timer = el("select", { name: "turn_timer" });
  for (const seconds of TIMERS) timer.append(new Option(seconds ? t("web.lobby.timer_n", { n: seconds }) : t("web.lobby.timer_none"), seconds ?? ""));
  const rules = HOUSE_RULES.map((rule) => el("label", {}, el("input", { type: "checkbox", name: rule }), " ", t(`web.rule.${rule}`)));

  const form = el("form", { id: "create-form", novalidate: true },
    el("label.field", {}, el("span", {}, t("web.lobby.your_name")), name),
    el("fieldset", {}, el("legend", {}, t("web.lobby.players")),
      el("label.field", {}, el("span", {}, t("web.lobby.seats")), seats), seatRows),
    el("fieldset", {}, el("legend", {}, t("web.lobby.house_rules")),
      el("div.grid2", {},
        el("label.field", {}, el("span", {}, t("web.lobby.target_score")), target),
        el("label.field", {}, el("span", {}, t("web.lobby.hand_size")), handSize)),
      el("label.field", {}, el("span", {}, t("web.lobby.turn_timer")), timer),
      el("div.options-grid", {}, rules)),
    el("button.btn.btn-primary", { type: "submit", id: "create-btn" }, t("web.lobby.create")));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const player = name.value.trim();
    if (!player) { showError(t("web.lobby.name_needed")); name.focus(); return; }
    if (nameTooLong(player)) { showError(t("server.error.name_too_long", { length: [...player].length, limit: MAX_NAME })); name.focus(); return; }
    const options = { target_score: Number(target.value), hand_size: Number(handSize.value) };
    for (const box of form.querySelectorAll(".options-grid input")) if (box.checked) options[box.name] = true;
    const bots = {};
    for (let s = 1; s < Number(seats.value); s++) if (choices[s].value !== "open") bots[String(s)] = choices[s].value;
    const button = form.querySelector("#create-btn");
    button.disabled = true;
    try {
      const created = await api("/api/tables", { seats: Number(seats.value), options, bots, turn_timer: timer.value ? Number(timer.value) : null });
      const joined = await api(`/api/tables/${created.code}/join`, { name: player, seat: 0 });
      saveName(player);
      localStorage.setItem(tokenKey(created.code), joined.token);
      navigate(`/t/${created.code}`);
    } catch (err) {
      showError(err.message);
      button.disabled = false;
    }
  });
  return el("section.panel", { "aria-labelledby": "create-title" }, el("h2", { id: "create-title" }, t("web.lobby.create_title")), form);
}

function joinPanel() {
  const code = el("input", { type: "text", name: "code", maxlength: 6, autocapitalize: "characters", autocomplete: "off", placeholder: "K7Q2XM", "aria-label": t("web.lobby.code") });
  const form = el("form.invite", {}, code, el("button.btn.btn-primary", { type: "submit" }, t("web.lobby.open_table")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = code.value.trim().toUpperCase();
    if (!/^[A-Z0-9]{6}$/.test(value)) { showError(t("web.lobby.code_bad")); return; }
    navigate(`/t/${value}`);
  });
  return el("section.panel", {}, el("h2", {}, t("web.lobby.join_title")), form);
}

function tablesPanel() {
  const list = el("ul.list", { id: "tables-list" }, el("li.empty", {}, t("web.loading")));
  api("/api/tables").then(({ tables }) => {
    list.replaceChildren();
    for (const table of tables.slice(0, 20)) {
      const seated = table.seats.filter((s) => s.kind !== "empty").length;
      const open = table.status === "lobby" && seated < table.seats.length;
      list.append(el("li", {},
        el("div", {}, el("strong", { dir: "ltr" }, table.code), " ", el("span.sub", {}, isolated([t(`web.status.${table.status}`), t("web.lobby.seated", { n: seated, of: table.seats.length })]))),
        el("div.row", {},
          open && el("a.btn.btn-small.btn-primary", { href: `/t/${table.code}`, onclick: go(`/t/${table.code}`) }, t("web.lobby.join")),
          el("a.btn.btn-small", { href: `/t/${table.code}#watch`, onclick: go(`/t/${table.code}#watch`) }, t("web.lobby.watch")))));
    }
    if (!tables.length) list.append(el("li.empty", {}, t("web.lobby.no_tables")));
  }).catch((err) => list.replaceChildren(el("li.empty", {}, err.message)));
  return el("section.panel", {}, el("h2", {}, t("web.lobby.tables_title")), list);
}

function gamesPanel() {
  const list = el("ul.list", { id: "games-list" }, el("li.empty", {}, t("web.loading")));
  api("/api/games").then(({ games }) => {
    list.replaceChildren();
    for (const game of games.slice(0, 20)) {
      list.append(el("li", {},
        el("div", {}, el("strong", {}, tNodes("web.lobby.game_won", { name: el("bdi", {}, recordedNames(game.players)[game.winner] ?? "?") })),
          el("div.sub", {}, isolated([el("bdi", { dir: "ltr" }, game.code), t("web.lobby.rounds", { n: game.rounds }), el("bdi", { dir: "ltr" }, game.scores.join(" / "))]))),
        el("a.btn.btn-small", { href: `/#replay/${game.id}`, onclick: go(`/#replay/${game.id}`) }, t("web.lobby.replay"))));
    }
    if (!games.length) list.append(el("li.empty", {}, t("web.lobby.no_games")));
  }).catch((err) => list.replaceChildren(el("li.empty", {}, err.message)));
  return el("section.panel", {}, el("h2", {}, t("web.lobby.games_title")), list);
}

/**
 * Parts of a line joined by " · ", each isolated, so that in a right-to-left page a number stays
 * with its own words ("14 رائونڊ") and never sticks to the table's code beside it.
 */
function isolated(parts) {
  return parts.flatMap((part, i) => [i ? " · " : null, part instanceof Node ? part : el("bdi", {}, part)]).filter(Boolean);
}

const go = (path) => (event) => { event.preventDefault(); navigate(path); };

export function showLobby(app) {
  const fan = ["R7", "Y+2", "WIB", "G5", "B8"].map((code, i) => {
    const card = cardElement(code);
    card.style.setProperty("--r", `${(i - 2) * 8}deg`);
    return card;
  });
  app.append(el("div.lobby", { id: "lobby" },
    el("div.hero", {}, el("div", {}, el("h1", {}, t("web.lobby.headline")), el("p", {}, t("web.lobby.tagline"))), el("div.hero-cards", { "aria-hidden": "true" }, fan)),
    createPanel(),
    el("div", { style: "display:grid;gap:1em;align-content:start" }, joinPanel(), tablesPanel(), gamesPanel())));
  return { close() {} };
}
