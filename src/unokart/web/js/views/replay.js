// A finished game, move by move, from any seat's view or with every card open; the
// address (/#replay/ID?seat=all&round=1&step=0) always points at what is shown, to share it.
import { t, tNodes, recordedNames } from "../i18n.js";
import { api } from "../net.js";
import { el, copyText, navigate } from "../ui.js";
import { cardElement, sortHand } from "../cards.js";
import { awaitingText, layoutHand, nameEl, renderCenter, renderOpponents, renderScores, seatsAfter } from "../board.js";
import { describeEvent } from "../events.js";

/** What ``seat`` saw in one frame (other hands as sizes, the drawn card only to the drawer). */
function viewFor(frame, seat) {
  if (seat === "all") return { ...frame, seat: null };
  return {
    ...frame, seat,
    hands: frame.hands.map((hand, s) => (s === seat ? hand : hand.length)),
    drawn: frame.to_act === seat ? frame.drawn : null,
  };
}

const visible = (event, seat) => seat === "all" || event.to === null || event.to.includes(seat);

/** The replay's controls: round, seat, first/previous/play/next/last, the slider, share. */
function replayBar(s, act) {
  const frames = s.replay.frames;
  const roundSelect = el("select", { id: "replay-round", "aria-label": t("web.replay.round") });
  for (let r = 1; r <= s.replay.rounds; r++) roundSelect.append(new Option(t("web.replay.round_n", { n: r }), r, false, r === s.round));
  roundSelect.addEventListener("change", () => act.round(Number(roundSelect.value)));
  const seatSelect = el("select", { id: "replay-seat", "aria-label": t("web.replay.view_as") });
  seatSelect.append(new Option(t("web.replay.all_open"), "all", false, s.seat === "all"));
  // An option holds text only: the name is isolated by FSI ... PDI, as <bdi> would.
  s.names.forEach((name, i) => seatSelect.append(new Option(t("web.replay.as_seat", { name: `\u2068${name}\u2069` }), i, false, s.seat === i)));
  seatSelect.addEventListener("change", () => act.seat(seatSelect.value === "all" ? "all" : Number(seatSelect.value)));
  const slider = el("input", { type: "range", id: "replay-slider", min: 0, max: frames.length - 1, value: s.step, "aria-label": t("web.replay.step") });
  slider.addEventListener("input", () => act.go(Number(slider.value)));
  const share = el("button.btn.btn-small", { type: "button", id: "replay-share" }, t("web.replay.share"));
  share.addEventListener("click", () => copyText(location.href, share));
  const button = (id, label, title, onclick) => el("button.btn.btn-small", { type: "button", id, title, "aria-label": title, onclick }, label);
  // The timeline runs left to right in every language, as the arrow keys step it (ArrowRight: next);
  // the menus and the words around it ("move 4 of 6") read in the page's own direction.
  const timeline = el("div.timeline", { dir: "ltr" },
    button("replay-first", "\u21E4", t("web.replay.first"), () => act.go(0)),
    button("replay-prev", "\u2190", t("web.replay.prev"), () => act.go(s.step - 1)),
    button("replay-play", s.playing ? "\u275A\u275A" : "\u25B6", t(s.playing ? "web.replay.pause" : "web.replay.play"), act.togglePlay),
    button("replay-next", "\u2192", t("web.replay.next"), () => act.go(s.step + 1)),
    button("replay-last", "\u21E5", t("web.replay.last"), () => act.go(frames.length - 1)),
    slider);
  return el("div.replay-bar", {}, roundSelect, seatSelect, timeline,
    el("span.step", { id: "replay-step" }, t("web.replay.step_of", { n: s.step, of: frames.length - 1 })), share);
}

/** The log up to the step shown, and the first sentence of its last frame (what the move did). */
function pastLog(s) {
  const log = el("div.log", { id: "replay-log", role: "log" });
  const viewer = s.seat === "all" ? null : s.seat;
  let said = null;
  s.replay.frames.slice(0, s.step + 1).forEach((past, index) => {
    for (const event of past.events) {
      if (event.text === null || !visible(event, s.seat)) continue;
      const words = describeEvent(event, s.names, viewer);
      if (!words) continue;
      if (index === s.step && said === null) said = words;
      // With every card open, a private sentence ("You drew B9") needs to say whose it was.
      const whose = s.seat === "all" && event.to !== null ? [nameEl(s.names[event.to[0]]), ": "] : [];
      log.append(el(`p${event.type === "item" ? ".item" : ""}${event.type === "round_start" ? ".round" : ""}${whose.length ? ".private" : ""}`, {}, whose, words));
    }
  });
  return { log, said };
}

/** One frame of the replay as the seat chosen saw it (or with every card open), under its controls. */
function drawFrame(screen, s, bar) {
  const frame = s.replay.frames[s.step];
  const view = { ...viewFor(frame, s.seat), players: s.names };
  const seat = s.seat === "all" ? null : s.seat;
  const { log, said } = pastLog(s);
  const board = el("div.board", {}, bar,
    // The move in words (its first sentence); its notation ("0: play R1") stays in data-action and the tooltip.
    el("div.replay-action", { id: "replay-action", dataset: { action: frame.action ?? "" }, title: frame.action ?? "" },
      frame.action ? (said ? said.map((n) => n.cloneNode(true)) : frame.action) : t("web.replay.deal")),
    renderOpponents(view, seatsAfter(seat, view.players.length), { me: seat, openHands: s.seat === "all" ? frame.hands : null }),
    renderCenter(view),
    el("div.prompt", {}, awaitingText(view)),
    seat !== null ? el("section.hand-area", {}, el("div.hand-tools", {}, el("span.me", {}, tNodes("web.table.you_are", { name: nameEl(view.players[seat]) }))),
      el("div.hand", { id: "hand", dir: "ltr" }, sortHand(view.hands[seat]).map(({ code }) => cardElement(code)))) : null);
  const side = el("aside.side", {},
    renderScores(view, s.replay.options.target_score ?? 500),
    el("section.panel", {}, el("h2", {}, t("web.table.log")), log));
  screen.replaceChildren(board, side);
  log.scrollTop = log.scrollHeight;
  const hand = screen.querySelector("#hand");
  if (hand) layoutHand(hand);
}

/** The replay's keys: arrows and pages step, Home and End jump, Space plays or pauses. */
function stepByKey(event, s, act) {
  if (!s.replay || ["INPUT", "SELECT"].includes(document.activeElement?.tagName) && document.activeElement.type !== "range") return;
  const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
  if (event.key in moves) act.go(s.step + moves[event.key]);
  else if (event.key === "Home") act.go(0);
  else if (event.key === "End") act.go(s.replay.frames.length - 1);
  else if (event.key === " ") act.togglePlay();
  else return;
  event.preventDefault();
}

/** A game that cannot be replayed: why, and the way back. */
function missing(message) {
  return el("section.panel", {}, el("h2", {}, t("web.replay.missing")), el("p", {}, message),
    el("a.btn", { href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } }, t("web.back_to_lobby")));
}

export function showReplay(app, gameId, params) {
  const query = new URLSearchParams(params);
  const s = {
    game: null, replay: null, seat: query.get("seat") === null || query.get("seat") === "all" ? "all" : Number(query.get("seat")),
    round: Number(query.get("round") || 1), step: Number(query.get("step") || 0), playing: null,
  };
  const screen = el("div.game", { id: "replay" });
  app.append(screen);
  let closed = false; // the reader left: a load still under way must not draw or rewrite the address

  function address() {
    return `/#replay/${gameId}?seat=${s.seat}&round=${s.round}&step=${s.step}`;
  }

  async function loadRound(round) {
    s.replay = await api(`/api/games/${gameId}/replay?round=${round}`);
    s.names = recordedNames(s.replay.players); // recorded bots in the reader's words
    s.round = round;
    s.step = Math.min(Math.max(0, s.step), s.replay.frames.length - 1);
  }

  function go(step) {
    const last = s.replay.frames.length - 1;
    s.step = Math.min(Math.max(0, step), last);
    if (s.step === last) stopPlaying();
    render();
  }

  function stopPlaying() {
    clearInterval(s.playing);
    s.playing = null;
  }

  function togglePlay() {
    if (s.playing) stopPlaying();
    else s.playing = setInterval(() => go(s.step + 1), 700);
    render();
  }

  function render() {
    history.replaceState(null, "", address());
    document.getElementById("top-meta").textContent = t("web.replay.meta", { id: gameId, code: s.game.code, round: s.round });
    drawFrame(screen, s, replayBar(s, {
      go, togglePlay,
      round: async (round) => { stopPlaying(); s.step = 0; await loadRound(round); if (!closed) render(); },
      seat: (value) => { s.seat = value; render(); },
    }));
  }

  const onKey = (event) => stepByKey(event, s, { go, togglePlay });

  async function start() {
    screen.replaceChildren(el("p.empty", {}, t("web.loading")));
    try {
      s.game = await api(`/api/games/${gameId}`);
      await loadRound(Math.min(Math.max(1, s.round), s.game.rounds));
    } catch (err) {
      if (!closed) screen.replaceChildren(missing(err.message));
      return;
    }
    if (!closed) render();
  }

  document.addEventListener("keydown", onKey);
  start();
  return { close() { closed = true; stopPlaying(); document.removeEventListener("keydown", onKey); } };
}
