// The table's talk (docs/PROTOCOL.md, chat and react): eight reactions anyone at the table may
// throw (they float over the sender's seat), and the players' chat. A message is text, never
// markup, isolated (<bdi>) with its sender's name; a player muted here is muted on this screen only.
import { t, tNodes } from "../i18n.js";
import { el } from "../ui.js";
import { mutedPlayers, visibleChat } from "../state.js";

const FACE = '<circle cx="12" cy="12" r="10" fill="#ffcc33" stroke="#8a5a00" stroke-width="1"/>';
const EYES = '<circle cx="8.5" cy="10" r="1.4" fill="#3b2200"/><circle cx="15.5" cy="10" r="1.4" fill="#3b2200"/>';
// The eight reactions the server accepts, each drawn inline (no emoji font needed), in the server's order.
export const REACTIONS = [
  ["\u{1F44D}", "thumbs_up", '<path d="M7 11h3l3-7c1.6 0 2.4 1 2.2 2.6L14.6 10H20c1.2 0 2 1 1.8 2.2l-1.3 7c-.2 1-1 1.8-2 1.8H10c-1 0-2-.6-3-1z" fill="#ffcc33" stroke="#8a5a00" stroke-width="1.1" stroke-linejoin="round"/><rect x="2.5" y="10.5" width="4.5" height="11" rx="1" fill="#1560bd" stroke="#0a2f60"/>'],
  ["\u{1F44F}", "clap", '<path d="M6 20l-2.5-8c-.4-1.2 1.2-1.9 1.9-.8L7 14l-1-7c-.2-1.3 1.7-1.6 2-.3l1.3 5.5.2-7c0-1.3 2-1.3 2 0l.3 7 1-5.5c.3-1.3 2.1-1 2 .3l-.6 9.5c-.2 2.5-2 4.5-4.7 4.5z" fill="#ffcc33" stroke="#8a5a00" stroke-width="1" stroke-linejoin="round"/><path d="M17 5l2-2M19.5 8l2.5-1M15 3l.5-2.5" stroke="#ff8a00" stroke-width="1.4" stroke-linecap="round"/>'],
  ["\u{1F602}", "laugh", FACE + '<path d="M6.5 10.5q2-2.2 4 0M13.5 10.5q2-2.2 4 0" fill="none" stroke="#3b2200" stroke-width="1.4" stroke-linecap="round"/><path d="M6.5 13.5h11q-.8 5-5.5 5t-5.5-5z" fill="#7a1f00"/><path d="M3.5 11q-2 3 0 4.5 2-1.5 0-4.5zM20.5 11q-2 3 0 4.5 2-1.5 0-4.5z" fill="#39a0ff"/>'],
  ["\u{1F62E}", "wow", FACE + EYES + '<ellipse cx="12" cy="16" rx="2.6" ry="3.2" fill="#3b2200"/>'],
  ["\u{1F622}", "sad", FACE + EYES + '<path d="M8 17.5q4-3.5 8 0" fill="none" stroke="#3b2200" stroke-width="1.5" stroke-linecap="round"/><path d="M16.5 12q-1.6 3 0 4 1.6-1 0-4z" fill="#39a0ff"/>'],
  ["\u{1F621}", "angry", '<circle cx="12" cy="12" r="10" fill="#e8483a" stroke="#6a0d05" stroke-width="1"/><path d="M6 8l4.5 2M18 8l-4.5 2" stroke="#3b0a00" stroke-width="1.6" stroke-linecap="round"/><circle cx="8.8" cy="11.5" r="1.3" fill="#3b0a00"/><circle cx="15.2" cy="11.5" r="1.3" fill="#3b0a00"/><path d="M8 17.5q4-3 8 0" fill="none" stroke="#3b0a00" stroke-width="1.6" stroke-linecap="round"/>'],
  ["\u{1F389}", "party", '<path d="M3 21l4.5-13 8.5 8.5z" fill="#ff9f1c" stroke="#7a3e00" stroke-width="1" stroke-linejoin="round"/><path d="M5 15l4 4M6.3 11.5l6.2 6.2" stroke="#e63946" stroke-width="1.3"/><path d="M14 3l1 2.5M19 5l-2 2M21 10l-2.7.3M11 6.5c1.5-1.5 1-3 2.5-4.5" stroke="#1560bd" stroke-width="1.4" stroke-linecap="round" fill="none"/><circle cx="18" cy="2.8" r="1" fill="#22b14c"/><circle cx="20.5" cy="14" r="1" fill="#e63946"/>'],
  ["\u{1F34C}", "banana", '<path d="M5 4c-1 7 2 14 12 16 2 .4 3-1 1-2-7-2-10-7-9.5-14z" fill="#ffd60a" stroke="#6b5300" stroke-width="1.2" stroke-linejoin="round"/><path d="M5 4l-.5-2 1.8.3z" fill="#6b5300"/>'],
];
const DRAWING = new Map(REACTIONS.map(([emoji, , svg]) => [emoji, svg]));
const MUTE_SVG = '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** A reaction drawn (its emoji stays in data-emoji; screen readers get its name). */
export function reactionIcon(emoji, size = 28) {
  const node = el("span.reaction-icon", { "aria-hidden": "true", dataset: { emoji } });
  node.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}">${DRAWING.get(emoji) ?? ""}</svg>`;
  return node;
}

function reactionBar(ctx) {
  return el("div.reactions", { role: "group", "aria-label": t("web.chat.react") }, REACTIONS.map(([emoji, key]) =>
    el("button.react-btn", { type: "button", dataset: { emoji }, title: t(`web.react.${key}`), "aria-label": t(`web.react.${key}`), onclick: () => ctx.react(emoji) },
      reactionIcon(emoji, 24))));
}

function messageLine(entry, state, ctx) {
  const mine = entry.seat === state.seat;
  const mute = mine || entry.seat === null ? null : el("button.mute-btn", {
    type: "button", title: t("web.chat.mute", { name: entry.name }), "aria-label": t("web.chat.mute", { name: entry.name }),
    onclick: () => ctx.toggleMute(entry.seat, entry.name),
  });
  if (mute) mute.innerHTML = MUTE_SVG;
  const words = tNodes("web.chat.line", { name: el("bdi.nm.chat-name", {}, entry.name), text: el("bdi.chat-text", {}, entry.text) });
  return el(`p${mine ? ".mine" : ""}`, { dataset: { seat: entry.seat } }, el("span.chat-words", {}, words), mute);
}

function mutedLine(state, ctx) {
  const muted = mutedPlayers(state);
  if (!muted.length) return null;
  return el("p.chat-muted", { id: "chat-muted" }, t("web.chat.muted"), " ", muted.map(({ seat, name }) =>
    el("button.btn.btn-ghost.btn-small", { type: "button", dataset: { unmute: seat }, onclick: () => ctx.toggleMute(seat, name) },
      tNodes("web.chat.unmute", { name: el("bdi", {}, name) }))));
}

/** The chat panel: built once; its messages are drawn again when they (or the muted players) change. */
export class ChatPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.log = el("div.chat-log", { id: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("web.chat.title") });
    this.muted = el("div");
    this.foot = el("div.chat-foot");
    this.element = el("section.panel.chat", { id: "chat", "aria-labelledby": "chat-title" },
      el("h2", { id: "chat-title" }, t("web.chat.title")), reactionBar(ctx), this.muted, this.log, this.foot);
  }

  update(state) {
    const seated = state.seat !== null && !!state.token && !state.watch;
    if (this.foot.__seated !== seated) {
      this.foot.__seated = seated;
      this.foot.replaceChildren(seated ? this.form() : el("p.sub", { id: "chat-spectator" }, t("web.chat.spectator")));
    }
    const shown = visibleChat(state);
    const key = JSON.stringify([state.chat.length, state.chat.at(-1)?.at, [...state.muted], state.seat]);
    if (this.log.__key === key) return;
    this.log.__key = key;
    this.muted.replaceChildren(mutedLine(state, this.ctx) ?? "");
    this.log.replaceChildren(...(shown.length ? shown.map((entry) => messageLine(entry, state, this.ctx)) : [el("p.empty", {}, t("web.chat.empty"))]));
    this.log.scrollTop = this.log.scrollHeight;
  }

  form() {
    const input = el("input", { type: "text", id: "chat-input", dir: "auto", maxlength: 200, autocomplete: "off", placeholder: t("web.chat.placeholder"), "aria-label": t("web.chat.placeholder") });
    const form = el("form.chat-form", {}, input, el("button.btn.btn-primary.btn-small", { type: "submit", id: "chat-send" }, t("web.chat.send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      this.ctx.chat(input.value);
      input.value = "";
    });
    return form;
  }
}

