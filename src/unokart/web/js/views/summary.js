// The summary of an ended round (or game): every seat's hand points, the winner's gain, the
// scores; a rematch and the way back to the lobby once the game is over. It stays up until its
// reader closes it, even once the next round is dealt.
import { t, tNodes } from "../i18n.js";
import { el, navigate } from "../ui.js";
import { nameEl } from "../board.js";

const TROPHY_SVG = '<svg viewBox="0 0 64 64" width="72" height="72"><path d="M18 12H8c0 9 4 15 12 16M46 12h10c0 9-4 15-12 16" fill="none" stroke="#ffcc00" stroke-width="4"/><path d="M17 6h30v12c0 11-7 19-15 19s-15-8-15-19z" fill="#ffcc00" stroke="#8a6a00" stroke-width="2"/><path d="M27 14l5-4 5 4-2 6h-6z" fill="#fff3b0"/><rect x="28" y="37" width="8" height="9" fill="#e0a800"/><rect x="19" y="46" width="26" height="9" rx="2" fill="#8a6a00"/></svg>';

function trophy() {
  const node = el("p.trophy", { "aria-hidden": "true" });
  node.innerHTML = TROPHY_SVG;
  return node;
}

/** The key of the summary a state shows, or null: one summary per ended round (the version stays until the next deal). */
export function summaryKey(state) {
  const awaiting = state.view?.awaiting;
  return awaiting === "round_over" || awaiting === "game_over" ? `${awaiting}:${state.version}` : null;
}

function scoreTable(view, end) {
  const rows = view.players.map((name, seat) => el(`tr${seat === end.winner ? ".winner" : ""}`, {},
    el("td", {}, seat === end.winner ? "\u2605 " : "", nameEl(name)),
    el("td.num", {}, end.hand_points[seat] ?? "–"),
    el("td.num", {}, seat === end.winner ? el("bdi", { dir: "ltr" }, `+${end.points}`) : ""), // "+230", never "230+"
    el("td.num", {}, end.scores[seat])));
  return el("table.summary-table", { id: "summary-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("web.table.player")), el("th.num", {}, t("web.summary.hand_points")), el("th.num", {}, t("web.summary.won")), el("th.num", {}, t("core.scores")))),
    el("tbody", {}, rows));
}

function buttons(dialog, gameOver, canRematch, ctx) {
  return el("div.row", { style: "justify-content:flex-end" },
    canRematch ? el("button.btn.btn-primary", { type: "button", id: "rematch-btn", onclick: () => { ctx.rematch(); dialog.close(); } }, t("web.summary.rematch")) : null,
    gameOver ? el("a.btn", { href: "/", onclick: (e) => { e.preventDefault(); dialog.close(); navigate("/"); } }, t("web.back_to_lobby")) : null,
    el("button.btn" + (gameOver ? ".btn-ghost" : ".btn-primary"), { type: "button", id: "summary-close", onclick: () => dialog.close() }, t(gameOver ? "web.close" : "web.summary.continue")));
}

/** Opens the summary of the state's ended round (names as shown: bots in words). */
export function openSummary(state, names, ctx) {
  const dialog = document.getElementById("summary-dialog");
  const view = state.view;
  const end = state.roundEnd && state.roundEnd.scores ? state.roundEnd : { winner: view.round_winner, hand_points: view.players.map(() => null), scores: view.scores, points: null };
  const gameOver = view.awaiting === "game_over";
  dialog.replaceChildren(...[
    gameOver ? trophy() : null,
    el("h2", { id: "summary-title" }, gameOver ? t("web.summary.game_title") : t("web.summary.round_title", { round: view.round })),
    el("p.winner-line", {}, gameOver ? tNodes("core.event.game_end", { name: nameEl(names[view.game_winner]) }) : tNodes("core.event.round_end", { name: nameEl(names[end.winner]), count: end.points })),
    scoreTable({ ...view, players: names }, end),
    el("p.sub", { style: "color:var(--muted)" }, gameOver ? t("web.summary.target", { n: state.table?.options?.target_score ?? 500 }) : t("web.summary.next_round")),
    buttons(dialog, gameOver, gameOver && state.token && state.seat !== null, ctx)].filter(Boolean));
  dialog.showModal();
}
