// The waiting room: the invitation (code and link), the seats (bots added or removed by a
// seated player), the table's rules, and Start once every seat is taken.
import { t, levelName } from "../i18n.js";
import { el, copyText } from "../ui.js";
import { nameEl } from "../board.js";
import { BOT_LEVELS, savedName } from "../lobby.js";

function seatWho(seat, state) {
  if (seat.kind === "empty") return el("span.empty", {}, t("web.wait.empty_seat"));
  return el("span.who", {}, el("strong", {}, seat.kind === "bot" ? t("web.lobby.bot_level", { level: levelName(seat.level) }) : nameEl(seat.name)),
    seat.seat === state.seat ? el("span.badge.badge-you", {}, t("web.you")) : null,
    seat.kind === "bot" ? el("span.badge.badge-bot", {}, t("web.wait.bot")) : null,
    seat.kind === "human" && !seat.connected && seat.seat !== state.seat ? el("span.badge.badge-off", {}, t("web.table.offline")) : null);
}

function botChoice(seat, ctx) {
  const level = el("select", { "aria-label": t("web.wait.bot_for", { n: seat.seat + 1 }) });
  level.append(new Option(t(seat.kind === "empty" ? "web.wait.add_bot" : "web.wait.remove_bot"), seat.kind === "empty" ? "" : "none"));
  for (const name of BOT_LEVELS) level.append(new Option(t("web.lobby.bot_level", { level: levelName(name) }), name, false, seat.level === name));
  level.addEventListener("change", () => { if (level.value) ctx.setBot(seat.seat, level.value === "none" ? null : level.value); });
  return level;
}

/** The seats of the table, as the join page and the waiting room list them. */
export function seatList(state, ctx) {
  const table = state.table;
  const mine = state.seat !== null && state.token;
  const list = el("ul.list.seats-list", { id: "seats" });
  for (const seat of state.seats.length ? state.seats : table.seats) {
    const tools = el("div.row");
    if (table.status === "lobby" && mine && seat.kind !== "human") tools.append(botChoice(seat, ctx));
    if (table.status === "lobby" && !mine && seat.kind === "empty" && (state.joining || !state.watch)) {
      tools.append(el("button.btn.btn-small", { type: "button", onclick: () => ctx.joinSeat((document.getElementById("join-name")?.value || savedName()).trim(), seat.seat) }, t("web.join.sit_here")));
    }
    list.append(el("li", { dataset: { seat: seat.seat } }, el("div", {}, el("span.sub", {}, t("web.lobby.seat_n", { n: seat.seat + 1 })), " ", seatWho(seat, state)), tools));
  }
  return list;
}

function invitation(code) {
  const link = `${location.origin}/t/${code}`; // the address this page was reached by, which friends can reach too
  const linkField = el("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-label": t("web.wait.link") });
  const copyLink = el("button.btn", { type: "button", id: "copy-link" }, t("web.wait.copy_link"));
  copyLink.addEventListener("click", () => copyText(link, copyLink));
  const copyCode = el("button.btn.btn-small.btn-ghost", { type: "button" }, t("web.wait.copy_code"));
  copyCode.addEventListener("click", () => copyText(code, copyCode));
  return [el("div.row", { style: "margin-bottom:.6em" }, el("span.code-big", { id: "table-code" }, code), copyCode), el("div.invite", {}, linkField, copyLink)];
}

function rulesLine(table) {
  const options = Object.entries(table.options).filter(([, value]) => value === true).map(([name]) => t(`web.rule.${name}`));
  return el("p.sub", { style: "color:var(--muted)" }, t("web.wait.rules", {
    target: t("web.wait.target", { n: table.options.target_score }), hand: t("web.wait.hand", { n: table.options.hand_size }),
    timer: table.turn_timer ? t("web.lobby.timer_n", { n: table.turn_timer }) : t("web.lobby.timer_none"),
    rules: options.length ? options.join(", ") : t("web.wait.no_house_rules"),
  }));
}

/** The waiting room, drawn again whole on each `table` message (nothing in it moves). */
export function renderWaiting(screen, state, ctx) {
  const table = state.table;
  const full = table.seats.every((seat) => seat.kind !== "empty");
  const seated = state.seat !== null && state.token;
  screen.replaceChildren(el("div.waiting", { id: "waiting-room" }, el("section.panel", {},
    el("h2", {}, t("web.wait.title")),
    el("p", {}, t("web.wait.invite")),
    ...invitation(state.code),
    el("h3", {}, t("web.wait.seats")),
    seatList(state, ctx),
    rulesLine(table),
    seated ? el("div.row", {},
      el("button.btn.btn-primary", { type: "button", id: "start-btn", disabled: !full, onclick: ctx.start }, full ? t("web.wait.start") : t("web.wait.fill_seats")),
      el("button.btn.btn-ghost", { type: "button", onclick: ctx.leave }, t("web.wait.leave")))
      : el("p.empty", {}, t("web.wait.spectating")))));
}
