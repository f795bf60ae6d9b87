// The join page: a name and a seat at a table still filling (watching it meanwhile, so a
// seat someone takes leaves the list at once), or watching instead.
import { t } from "../i18n.js";
import { el } from "../ui.js";
import { MAX_NAME, savedName } from "../lobby.js";
import { seatList } from "./waiting.js";

export function renderJoin(screen, state, ctx) {
  const list = screen.querySelector("#join-page #seats");
  if (list) { list.replaceWith(seatList(state, ctx)); return; } // a `table` message: keep what was typed
  const name = el("input", { type: "text", id: "join-name", dir: "auto", maxlength: 2 * MAX_NAME, value: savedName(), placeholder: t("web.lobby.name_placeholder"), autocomplete: "nickname" });
  const form = el("form", {}, el("label.field", {}, el("span", {}, t("web.lobby.your_name")), name),
    el("div.row", {}, el("button.btn.btn-primary", { type: "submit", id: "join-btn" }, t("web.join.take_seat")),
      el("button.btn.btn-ghost", { type: "button", onclick: ctx.watchInstead }, t("web.lobby.watch"))));
  form.addEventListener("submit", (event) => { event.preventDefault(); ctx.joinSeat(name.value.trim()); });
  screen.replaceChildren(el("div.waiting", { id: "join-page" }, el("section.panel", {}, el("h2", {}, t("web.join.title", { code: state.code })), seatList(state, ctx), form)));
  name.focus();
}

/** A table that cannot be opened (``err``: an ApiError): why, and the way back. */
export function renderMissing(screen, err, ctx) {
  const heading = err.status === 404 ? t("web.error.no_such_table") : t("web.error.cannot_open");
  screen.replaceChildren(el("div.waiting", {}, el("section.panel", {}, el("h2", {}, heading), el("p", {}, err.message),
    el("a.btn.btn-primary", { href: "/", onclick: (e) => { e.preventDefault(); ctx.toLobby(); } }, t("web.back_to_lobby")))));
}
