// The live table's state as pure functions: a server message (docs/PROTOCOL.md) and the
// state before give the state after, and the moments worth showing (a card played, cards
// drawn, an item, an announcement, a sound). No DOM, no clock, no storage: the views draw a
// state, the page's modules (motion.js, sound.js, announce.js) act on the moments, and
// `node --test tests/js` checks all of this without a browser.

/** "2: play W+4 G uno" -> {seat: 2, verb: "play", card: "W+4", color: "G", target: null, uno: true, text}. */
export function parseAction(text) {
  const [head, rest = ""] = text.split(":");
  const words = rest.trim().split(/\s+/);
  const action = { seat: Number(head), verb: words[0], card: null, color: null, target: null, uno: false, text };
  const args = words.slice(1);
  if (args[args.length - 1] === "uno") action.uno = true, args.pop();
  if (action.verb === "play" || action.verb === "jump") {
    action.card = args[0];
    action.color = args[1] ?? null;
  } else if (action.verb === "color") action.color = args[0];
  else if (["target", "catch", "swap"].includes(action.verb)) action.target = Number(args[0]);
  return action;
}

/** A table's state before any message: the seat's token (if the player sits here) or watching, and the players this reader muted. */
export function initialState({ code, token = null, watch = false, muted = [] }) {
  return {
    code, token, watch, seat: null, table: null, seats: [], version: 0, view: null, legal: [], deadline: null,
    game: null, seen: new Set(), backlog: true, busy: false, joining: false,
    unoArmed: false, picker: null, reveal: null, roundEnd: null,
    chat: [], muted: new Set(muted.filter((key) => typeof key === "string")), chatSent: new Set(),
  };
}

/** Which screen the state is drawn on: "loading", "join", "waiting" (room) or "game". */
export function screenOf(state) {
  if (state.joining) return state.table ? "join" : "loading";
  if (!state.table && !state.view) return "loading";
  if (!state.view || (state.table && state.table.status === "lobby")) return state.table ? "waiting" : "loading";
  return "game";
}

export const legalOf = (state, verb) => state.legal.filter((a) => a.verb === verb);
export const playsOf = (state, card) => state.legal.filter((a) => (a.verb === "play" || a.verb === "jump") && a.card === card);
export const isMyTurn = (state) => state.seat !== null && !!state.view && state.view.to_act === state.seat;
const eventKey = (round, event) => `${round}:${event.i}`;

/** The state with events already shown (the tab's stored log) counted as seen. */
export function markSeen(state, entries) {
  const seen = new Set(state.seen);
  for (const { round, event } of entries) seen.add(eventKey(round, event));
  return { ...state, seen };
}

/**
 * One server message. Returns {state, events, moments, command}: the events not seen before
 * (for the log), the moments to show (none for a backlog resent after a (re)connection), and
 * what the page must do that a state cannot (forget a refused token, ask for a sync, show an error).
 */
export function receive(state, message) {
  switch (message.type) {
    case "welcome":
      return result({ ...state, seat: message.seat });
    case "table": {
      const table = message.table;
      const open = table.status === "lobby" && table.seats.some((seat) => seat.kind === "empty");
      return result({ ...state, table, seats: table.seats, joining: state.joining && open }); // every seat taken: watch
    }
    case "state":
      return receiveState(state, message);
    case "error":
      return receiveError(state, message);
    case "chat":
      return result({ ...state, chat: [...state.chat, chatEntry(message)].slice(-CHAT_KEPT) }, { moments: [{ kind: "chat", seat: message.seat }] });
    case "chat_history":
      return result({ ...state, chat: (message.messages || []).map(chatEntry).slice(-CHAT_KEPT) });
    case "react":
      return result(state, { moments: [{ kind: "react", seat: message.seat ?? null, emoji: message.emoji }] });
    default:
      return result(state);
  }
}

const result = (state, extra = {}) => ({ state, events: [], moments: [], command: null, ...extra });

function receiveError(state, message) {
  // A refused chat message or reaction: the page says why (a rate limit too), the game is not waiting.
  if (message.re !== undefined && state.chatSent.has(message.re)) return result(state, { command: { kind: "error", error: message } });
  const next = { ...state, busy: false };
  if (message.code === "bad_token") return result({ ...next, token: null }, { command: { kind: "forget_token" } });
  if (message.code === "stale_version") return result(next, { command: { kind: "sync" } });
  if (message.code === "rate_limited") return result(next);
  return result(next, { command: { kind: "error", error: message } });
}

function receiveState(state, message) {
  const before = state.view;
  const view = message.view;
  const legal = (message.legal || []).map(parseAction);
  const game = message.game ?? state.table?.game ?? 0;
  let seen = game === state.game ? new Set(state.seen) : new Set();
  const events = [];
  for (const event of message.events || []) {
    const key = eventKey(view.round, event);
    if (seen.has(key)) continue;
    seen.add(key);
    events.push(event);
  }
  let next = {
    ...state, version: message.version, seats: message.seats || state.seats, view, legal, game, seen,
    deadline: message.deadline ?? null, busy: false, backlog: false,
    table: state.table && state.table.status === "lobby" ? { ...state.table, status: "playing" } : state.table,
  };
  if (before && before.round !== view.round) next.reveal = null;
  if (!legal.some((a) => a.uno)) next.unoArmed = false;
  if (next.picker && !legal.some((a) => a.card === next.picker.card)) next.picker = null;
  for (const event of events) {
    if (event.type === "reveal" && event.to === next.seat) next.reveal = { seat: event.seat, cards: event.cards };
    if (event.type === "round_end") next.roundEnd = event;
  }
  const moments = state.backlog ? [] : momentsOf(events, next, before);
  // Versions grow by one: a jump means a state (and its events) never reached us, so ask for the whole again.
  const missed = !state.backlog && message.version > state.version + 1;
  return result(next, { events, moments, command: missed ? { kind: "sync" } : null });
}

/** What the player is shown and hears for fresh events (and for a turn that became theirs). */
export function momentsOf(events, state, before = null) {
  const moments = [];
  for (const event of events) moments.push(...momentsOfEvent(event, state));
  const mine = isMyTurn(state) && state.legal.length > 0;
  const wasMine = !!before && before.round === state.view.round && before.to_act === state.seat;
  if (mine && !wasMine) moments.push({ kind: "your_turn", sound: "your_turn" });
  return moments;
}

function momentsOfEvent(event, state) {
  const seat = event.seat;
  switch (event.type) {
    case "play":
    case "jump_in": // UNO said with the card is an "uno" event of its own, just after
      return [{ kind: "play", seat, card: event.card, sound: "play" }];
    case "draw":
      return event.count > 0 ? [{ kind: "draw", seat, count: event.count, cause: event.cause ?? null, sound: "draw" }] : [];
    case "item":
      return event.item ? [{ kind: "item", item: event.item, seat, victim: event.victim ?? null, card: event.card, event, sound: event.item }] : [];
    case "green_shell_target":
      return [{ kind: "shell", seat, target: event.target, event }];
    case "reverse":
      return [{ kind: "direction", direction: event.direction }];
    case "uno":
      return [announce("uno", { seat }, "uno")];
    case "caught":
      return [announce("caught", { seat, target: event.target }, "catch")];
    case "challenge":
      return [announce(event.guilty ? "challenge_won" : "challenge_lost", { seat, target: event.target },
        challengeSound(event, state.seat))];
    case "round_end":
      return [announce("round", { seat: event.winner }, "round_won")];
    case "game_end":
      return [announce("game", { seat: event.winner }, "game_won")];
    default:
      return [];
  }
}

const announce = (what, seats, sound) => ({ kind: "announce", what, ...seats, sound });

/** A challenge sounds won to its winner and lost to its loser; a third party hears the challenger's fate. */
export function challengeSound(event, viewer) {
  const challengerWon = !!event.guilty;
  if (viewer === event.target) return challengerWon ? "challenge_lost" : "challenge_won";
  return challengerWon ? "challenge_won" : "challenge_lost";
}

// ------------------------------------------------------------------ chat and reactions

const CHAT_KEPT = 100; // messages kept in the tab (the server resends its last 50 on a reconnection)
const chatEntry = ({ seat, name, text, at }) => ({ seat, name, text, at });
const muteKey = (seat, name) => `${seat}:${name}`;

/** A chat message or reaction sent with ``id``: a refusal of it is shown to the sender. */
export function sentChat(state, id) {
  return id === null ? state : { ...state, chatSent: new Set(state.chatSent).add(id) };
}

/** Mutes (or unmutes) a player on this screen only: the seat and its name, so a new player in the seat is heard. */
export function toggleMute(state, seat, name) {
  const muted = new Set(state.muted);
  const key = muteKey(seat, name);
  if (muted.has(key)) muted.delete(key);
  else muted.add(key);
  return { ...state, muted };
}

export const isMuted = (state, seat, name) => state.muted.has(muteKey(seat, name));

/** The chat as this reader sees it: muted players' messages left out. */
export function visibleChat(state) {
  return state.chat.filter((entry) => !isMuted(state, entry.seat, entry.name));
}

/** The players this reader has muted: [{seat, name}]. */
export function mutedPlayers(state) {
  return [...state.muted].map((key) => ({ seat: Number(key.slice(0, key.indexOf(":"))), name: key.slice(key.indexOf(":") + 1) }));
}

// ------------------------------------------------------------------ the player's own choices

/** An action about to be sent: the page waits for its answer, the colour picker and a reveal close. */
export function sending(state) {
  return { ...state, busy: true, picker: null, reveal: null };
}

/** The action a chosen card plays now, or a colour picker to open, or a refusal (R4.1). */
export function chooseCard(state, card) {
  const plays = playsOf(state, card);
  if (!plays.length) return { refuse: true };
  const withUno = state.unoArmed && plays.some((a) => a.uno);
  if (plays.some((a) => a.color)) return { state: { ...state, picker: { card, uno: withUno } } };
  return { action: plays.find((a) => a.uno === withUno) || plays[0] };
}

/** The action a chosen colour sends (for the card being played, or a colour asked for), or null. */
export function chooseColor(state, color) {
  if (state.picker) return playsOf(state, state.picker.card).find((a) => a.color === color && a.uno === state.picker.uno) || null;
  return legalOf(state, "color").find((a) => a.color === color) || null;
}

/** UNO: said now when it is an action of its own, else armed (or disarmed) for the next card. */
export function pressUno(state) {
  const say = legalOf(state, "uno")[0];
  if (say) return { action: say };
  if (state.legal.some((a) => a.uno)) return { state: { ...state, unoArmed: !state.unoArmed } };
  return {};
}
