// A table, live: the join page, the waiting room, then the game. Every message from the server
// goes through state.js (pure); the screen the state is on is drawn by its view (views/*.js), and
// the moments it brings move (motion.js), sound (sound.js) and are announced (announce.js).
import { t, currentLanguage, seatNames } from "./i18n.js";
import { api, tokenKey, TableSocket } from "./net.js";
import { el, showError, showServerError, showStatus, navigate } from "./ui.js";
import { cardName } from "./cards.js";
import { describeEvent } from "./events.js";
import { saveName } from "./lobby.js";
import * as S from "./state.js";
import { renderJoin, renderMissing } from "./views/join.js";
import { renderWaiting } from "./views/waiting.js";
import { GameView, tick } from "./views/game.js";
import { openSummary, summaryKey } from "./views/summary.js";
import { attachKeyboard, openKeys } from "./keyboard.js";
import { playMoments } from "./moments.js";
import { clearAnnouncement } from "./announce.js";
import { placeNotice } from "./motion.js";

const PRIVATE_EVENTS = new Set(["drew", "deal", "hand", "reveal"]);
const LOG_LIMIT = 800; // events kept per game in the tab's sessionStorage
// An action unanswered this long had its answer lost on the way (a state never reached us, and none followed it):
// ask for the table as it is, so the page does not wait on it for ever.
const ANSWER_WAIT_MS = 8000;

/**
 * The game's log, kept in this tab (sessionStorage, per table and game) so that a reload shows
 * the earlier rounds too; the server resends only the current round.
 */
function createLog(code) {
  const node = el("div.log", { id: "log", role: "log", "aria-live": "polite", "aria-label": t("web.table.log") });
  let storeKey = null, stored = [], game = null;
  function line(round, event, names, seat) {
    if (event.text === null) return; // the server says it tells a person nothing
    const words = describeEvent(event, names, seat);
    if (!words) return;
    const kind = event.type === "round_start" ? ".round" : `${event.type === "item" ? ".item" : ""}${PRIVATE_EVENTS.has(event.type) ? ".private" : ""}`;
    node.append(el(`p${kind}`, { dataset: { event: event.type, round } }, words));
  }
  return {
    node,
    /** Opens a game's log; returns its stored entries (to count as seen). */
    open(newGame, names, seat) {
      if (game === newGame) return null;
      game = newGame;
      storeKey = `unokart.log.${code}.${game}`;
      node.replaceChildren();
      try { stored = JSON.parse(sessionStorage.getItem(storeKey) || "[]"); } catch { stored = []; }
      for (const entry of stored) line(entry.round, entry.event, names, seat);
      return stored;
    },
    add(round, event, names, seat) {
      line(round, event, names, seat);
      stored.push({ round, event });
      if (stored.length > LOG_LIMIT) stored.splice(0, stored.length - LOG_LIMIT);
      try { sessionStorage.setItem(storeKey, JSON.stringify(stored)); } catch { /* storage full: the log still shows */ }
      node.scrollTop = node.scrollHeight;
    },
  };
}

// Whom this reader muted at a table, kept for the table's next visit (a reload, a new tab).
const mutesKey = (code) => `unokart.muted.${code.toUpperCase()}`;

function storedMutes(code) {
  try {
    const keys = JSON.parse(localStorage.getItem(mutesKey(code)) ?? "[]");
    return Array.isArray(keys) ? keys : [];
  } catch {
    return []; // a broken entry is forgotten, not fatal
  }
}

/** The table's screen (app.js routes to it): its state, its websocket and its views. */
class TableScreen {
  constructor(app, code, watchOnly) {
    this.code = code;
    this.s = S.initialState({ code, token: localStorage.getItem(tokenKey(code)), watch: watchOnly, muted: storedMutes(code) });
    this.screen = el("div", { id: "table-screen" });
    app.append(this.screen);
    this.log = createLog(code);
    this.socket = null;
    this.gameView = null;
    this.summaryFor = null;
    this.closed = false; // the player left: a load still under way must not connect or draw
    this.timer = setInterval(() => tick(this.screen, Date.now()), 250);
    this.ctx = this.actions();
    this.detachKeys = attachKeyboard({
      screen: this.screen,
      playing: () => !!this.s.view && this.s.seat !== null && !!this.gameView,
      choosingColor: () => !!this.s.picker || S.legalOf(this.s, "color").length > 0,
      chooseColor: this.ctx.chooseColor,
      pressUno: this.ctx.pressUno,
      cancel: () => { if (!this.s.picker) return false; this.ctx.cancelPicker(); return true; },
    });
    document.getElementById("help-btn").addEventListener("click", openKeys);
    this.start();
  }

  /** The names to show for the seats: bots by their level, in the reader's words. */
  names() {
    return this.s.view ? seatNames(this.s.view.players, this.s.seats) : [];
  }

  connect() {
    if (this.closed) return;
    this.socket = new TableSocket(this.code, {
      hello: () => (this.s.token && !this.s.watch ? { type: "resume", token: this.s.token, lang: currentLanguage() } : { type: "watch", lang: currentLanguage() }),
      onMessage: (message) => this.onMessage(message),
      onStatus: (status) => {
        if (status === "connecting") this.s = { ...this.s, backlog: true };
        showStatus(status === "connecting" ? t("web.reconnecting") : status === "closed" ? t("web.error.no_such_table") : "");
      },
    });
  }

  onMessage(message) {
    if (message.type === "state") {
      const game = message.game ?? this.s.table?.game ?? 0;
      const stored = this.log.open(game, seatNames(message.view.players, message.seats || this.s.seats), this.s.seat);
      if (stored) this.s = S.markSeen({ ...this.s, game }, stored);
    }
    const before = this.gameView && this.s.view ? this.handRects() : null;
    const out = S.receive(this.s, message);
    this.s = out.state;
    for (const event of out.events) this.log.add(this.s.view.round, event, this.names(), this.s.seat);
    if (out.command) this.obey(out.command);
    const drawn = this.render();
    if (!this.gameView) return;
    playMoments(out.moments, { s: this.s, names: this.names(), gameView: this.gameView, screen: this.screen, before, fresh: drawn?.fresh ?? [], turned: drawn?.turned });
  }

  /** Where the hand's cards were before a state changed them (a played card leaves from there). */
  handRects() {
    return new Map([...this.screen.querySelectorAll("#hand .card")].map((card) => [card.dataset.code, card.getBoundingClientRect()]));
  }

  obey(command) {
    if (command.kind === "forget_token") {
      localStorage.removeItem(tokenKey(this.code));
      this.socket.close();
      this.start();
    } else if (command.kind === "sync") this.socket.send({ type: "sync" });
    else if (command.kind === "error") showServerError(command.error);
  }

  send(action) {
    if (this.s.busy || !this.s.token) return;
    this.s = S.sending(this.s);
    this.socket.send({ type: "action", token: this.s.token, version: this.s.version, action: action.text });
    clearTimeout(this.answerTimer);
    const version = this.s.version;
    this.answerTimer = setTimeout(() => {
      if (!this.closed && this.s.busy && this.s.version === version) this.socket.send({ type: "sync" });
    }, ANSWER_WAIT_MS);
  }

  /** What the views may do: the player's moves (through state.js), the waiting room's and the summary's buttons. */
  actions() {
    const update = (state) => { this.s = state; this.render(); };
    const message = (type, fields = {}) => this.socket.send({ type, token: this.s.token, ...fields });
    return {
      send: (action) => this.send(action),
      sendVerb: (verb) => { const act = S.legalOf(this.s, verb)[0]; if (act) this.send(act); },
      chooseCard: (card) => {
        const choice = S.chooseCard(this.s, card);
        if (choice.refuse) showError(t("web.table.cannot_play", { card: cardName(card) }), "R4.1");
        else if (choice.action) this.send(choice.action);
        else update(choice.state);
      },
      chooseColor: (color) => { const action = S.chooseColor(this.s, color); if (action) this.send(action); },
      pressUno: () => {
        const choice = S.pressUno(this.s);
        if (choice.action) this.send(choice.action);
        else if (choice.state) update(choice.state);
      },
      cancelPicker: () => update({ ...this.s, picker: null }),
      joinSeat: (name, seat) => this.joinSeat(name, seat),
      watchInstead: () => update({ ...this.s, joining: false, watch: true }),
      setBot: (seat, level) => message("bot", { seat, level }),
      start: () => message("start"),
      rematch: () => message("rematch"),
      leave: () => this.leave(),
      toLobby: () => navigate("/"),
      chat: (text) => { this.s = S.sentChat(this.s, this.socket.send({ type: "chat", token: this.s.token, text })); },
      // A spectator (or a player watching) reacts without a token (docs/PROTOCOL.md, react).
      react: (emoji) => {
        const seated = this.s.token && !this.s.watch && this.s.seat !== null;
        this.s = S.sentChat(this.s, this.socket.send(seated ? { type: "react", token: this.s.token, emoji } : { type: "react", emoji }));
      },
      toggleMute: (seat, name) => {
        update(S.toggleMute(this.s, seat, name));
        localStorage.setItem(mutesKey(this.code), JSON.stringify([...this.s.muted]));
      },
    };
  }

  /** Draws the state on its screen; for the game, returns what its view changed (new cards, a turn of direction). */
  render() {
    const which = S.screenOf(this.s);
    if (which !== "game") this.gameView = null;
    if (which === "join") renderJoin(this.screen, this.s, this.ctx);
    if (which === "join" || which === "loading") return null;
    document.getElementById("top-meta").textContent = which === "game" ? t("web.table.meta", { code: this.code, round: this.s.view.round }) : t("web.table.meta_lobby", { code: this.code });
    if (which === "waiting") { renderWaiting(this.screen, this.s, this.ctx); return null; }
    document.getElementById("help-btn").classList.remove("hidden");
    this.gameView ??= new GameView(this.screen, this.ctx, this.log.node);
    const drawn = this.gameView.update(this.s, this.names());
    tick(this.screen, Date.now());
    placeNotice(this.screen);
    const summary = summaryKey(this.s);
    if (summary && summary !== this.summaryFor) { this.summaryFor = summary; openSummary(this.s, this.names(), this.ctx); }
    return drawn;
  }

  async start() {
    this.screen.replaceChildren(el("p.empty", { style: "text-align:center;padding:2em" }, t("web.loading")));
    if (this.s.token || this.s.watch) { this.connect(); return; }
    let table;
    try {
      table = await api(`/api/tables/${this.code}`);
    } catch (err) {
      if (!this.closed) renderMissing(this.screen, err, this.ctx);
      return;
    }
    if (this.closed) return;
    if (table.status === "lobby" && table.seats.some((seat) => seat.kind === "empty")) {
      this.s = { ...this.s, table, joining: true, seats: table.seats }; // watch while choosing a seat
      this.render();
    } else this.s = { ...this.s, table, watch: true };
    this.connect();
  }

  async joinSeat(name, seat) {
    if (!name) { showError(t("web.lobby.name_needed")); return; }
    try {
      const joined = await api(`/api/tables/${this.code}/join`, seat === undefined ? { name } : { name, seat });
      saveName(name);
      localStorage.setItem(tokenKey(this.code), joined.token);
      this.s = { ...this.s, token: joined.token };
      if (this.closed) return; // the seat is kept (its token saved) for when the player comes back
      if (this.socket) this.socket.close();
      this.s = { ...this.s, watch: false, joining: false };
      this.connect();
    } catch (err) {
      showError(err.message);
    }
  }

  leave() {
    if (this.s.token) this.socket.send({ type: "leave", token: this.s.token });
    if (this.s.table.status === "lobby") localStorage.removeItem(tokenKey(this.code));
    navigate("/");
  }

  close() {
    this.closed = true;
    clearTimeout(this.answerTimer);
    clearInterval(this.timer);
    this.detachKeys();
    document.getElementById("help-btn").removeEventListener("click", openKeys);
    document.getElementById("summary-dialog").close();
    document.getElementById("item-fx")?.remove();
    clearAnnouncement();
    if (this.socket) this.socket.close();
  }
}

export function showTable(app, code, watchOnly) {
  return new TableScreen(app, code, watchOnly);
}
