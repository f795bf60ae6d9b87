// A table, live: the waiting room, then the game. Everything shown comes from the server's
// per-seat `state` messages (docs/PROTOCOL.md); every choice offered is one of `legal`.
import { t, tNodes, currentLanguage, seatNames, levelName } from "./i18n.js";
import { api, tokenKey, TableSocket } from "./net.js";
import { el, showError, showServerError, showStatus, copyText, parseAction, navigate } from "./ui.js";
import { cardElement, cardName, cardRef, colorChip, COLORS, itemSvg, sortHand } from "./cards.js";
import { awaitingText, handSize, layoutHand, nameEl, renderCenter, renderOpponents, renderScores, seatsAfter } from "./board.js";
import { describeEvent } from "./events.js";
import { BOT_LEVELS, savedName, saveName } from "./lobby.js";

const TROPHY_SVG = '<svg viewBox="0 0 64 64" width="72" height="72"><path d="M18 12H8c0 9 4 15 12 16M46 12h10c0 9-4 15-12 16" fill="none" stroke="#ffcc00" stroke-width="4"/><path d="M17 6h30v12c0 11-7 19-15 19s-15-8-15-19z" fill="#ffcc00" stroke="#8a6a00" stroke-width="2"/><path d="M27 14l5-4 5 4-2 6h-6z" fill="#fff3b0"/><rect x="28" y="37" width="8" height="9" fill="#e0a800"/><rect x="19" y="46" width="26" height="9" rx="2" fill="#8a6a00"/></svg>';
const PRIVATE_EVENTS = new Set(["drew", "deal", "hand", "reveal"]);
const KEYS = [
  ["\u2190 \u2192", "web.keys.move"], ["1-9", "web.keys.pick"], ["Enter", "web.keys.play"], ["D", "web.keys.draw"],
  ["P", "web.keys.keep"], ["U", "web.keys.uno"], ["C", "web.keys.challenge"], ["A", "web.keys.accept"],
  ["R Y G B", "web.keys.colors"], ["K", "web.keys.catch"], ["Esc", "web.keys.cancel"], ["?", "web.keys.help"],
];

export function showTable(app, code, watchOnly) {
  const s = {
    code, token: localStorage.getItem(tokenKey(code)), watch: watchOnly, seat: null, table: null, version: 0,
    view: null, legal: [], seats: [], deadline: null, seen: new Set(), backlog: true, busy: false,
    selected: null, unoArmed: false, picker: null, reveal: null, summaryFor: null, socket: null,
    joining: false, game: null, logKey: null, stored: [], pendingFx: null,
  };
  const screen = el("div", { id: "table-screen" });
  app.append(screen);
  const log = el("div.log", { id: "log", role: "log", "aria-live": "polite", "aria-label": t("web.table.log") });
  let tick = null;
  let closed = false; // the player left this screen: a load still under way must not connect or draw
  const LOG_LIMIT = 800; // events kept per game in the tab's sessionStorage

  // The log of the game so far is kept in this tab (sessionStorage, per table and game), so a
  // reload shows the earlier rounds too; the server resends only the current round.
  function openLog(game) {
    if (s.game === game) return;
    s.game = game;
    s.logKey = `unokart.log.${code}.${game}`;
    s.seen = new Set();
    log.replaceChildren();
    try { s.stored = JSON.parse(sessionStorage.getItem(s.logKey) || "[]"); } catch { s.stored = []; }
    for (const entry of s.stored) showEvent(entry.round, entry.event, false);
  }

  function storeEvent(round, event) {
    s.stored.push({ round, event });
    if (s.stored.length > LOG_LIMIT) s.stored.splice(0, s.stored.length - LOG_LIMIT);
    try { sessionStorage.setItem(s.logKey, JSON.stringify(s.stored)); } catch { /* storage full: the log still shows */ }
  }

  // ------------------------------------------------------------------ connection
  function connect() {
    if (closed) return;
    s.socket = new TableSocket(code, {
      hello: () => (s.token && !s.watch ? { type: "resume", token: s.token, lang: currentLanguage() } : { type: "watch", lang: currentLanguage() }),
      onMessage,
      onStatus: (status) => {
        if (status === "connecting") s.backlog = true;
        showStatus(status === "connecting" ? t("web.reconnecting") : status === "closed" ? t("web.error.no_such_table") : "");
      },
    });
  }

  function onMessage(message) {
    if (message.type === "welcome") {
      s.seat = message.seat;
    } else if (message.type === "table") {
      s.table = message.table;
      s.seats = message.table.seats;
      if (s.joining && !(s.table.status === "lobby" && s.seats.some((seat) => seat.kind === "empty"))) s.joining = false; // every seat taken: watch
      render();
    } else if (message.type === "state") {
      onState(message);
    } else if (message.type === "error") {
      s.busy = false;
      if (message.code === "bad_token") {
        localStorage.removeItem(tokenKey(code));
        s.token = null;
        s.socket.close();
        start();
      } else if (message.code === "stale_version") {
        s.socket.send({ type: "sync" });
      } else if (message.code !== "rate_limited") {
        showServerError(message);
      }
      render();
    }
  }

  function onState(message) {
    const previousRound = s.view ? s.view.round : null;
    s.version = message.version;
    s.seats = message.seats || s.seats;
    s.view = message.view;
    s.view.players = seatNames(message.view.players, s.seats); // bots by their level, in the reader's words
    openLog(message.game ?? s.table?.game ?? 0);
    s.legal = (message.legal || []).map(parseAction);
    s.deadline = message.deadline;
    s.busy = false;
    if (previousRound !== null && previousRound !== s.view.round) s.reveal = null;
    if (!s.legal.some((a) => a.uno)) s.unoArmed = false;
    if (s.picker && !s.legal.some((a) => a.card === s.picker.card)) s.picker = null;
    if (s.table && s.table.status === "lobby") s.table.status = "playing";
    for (const event of message.events || []) addEvent(event, !s.backlog);
    s.backlog = false;
    render();
  }

  /** One event into the log; false if it was there already (events come again after a reconnection). */
  function showEvent(round, event, fresh) {
    const key = `${round}:${event.i}`;
    if (s.seen.has(key)) return false;
    s.seen.add(key);
    if (event.text === null) return true; // the server says it tells a person nothing
    const words = describeEvent(event, s.view ? s.view.players : [], s.seat);
    if (!words) return true;
    const kind = event.type === "round_start" ? ".round" : `${event.type === "item" ? ".item" : ""}${PRIVATE_EVENTS.has(event.type) ? ".private" : ""}`;
    log.append(el(`p${kind}`, { dataset: { event: event.type, round } }, words));
    // The Green Shell's victim is chosen after it is turned: say whom it hit while the effect is up.
    if (fresh && event.type === "green_shell_target") document.querySelector("#item-fx .what")?.append(el("div", {}, words.map((n) => n.cloneNode(true))));
    return true;
  }

  function addEvent(event, fresh) {
    if (!showEvent(s.view.round, event, fresh)) return;
    storeEvent(s.view.round, event);
    if (event.type === "reveal" && event.to === s.seat) s.reveal = { seat: event.seat, cards: event.cards };
    if (event.type === "round_end") s.roundEnd = event;
    if (fresh && event.type === "item" && event.item) s.pendingFx = event; // shown once the table is drawn
  }

  // ------------------------------------------------------------------ actions
  function send(action) {
    if (s.busy || !s.token) return;
    s.busy = true;
    s.picker = null;
    s.reveal = null; // a challenge's reveal stays up until its reader's next move
    s.socket.send({ type: "action", token: s.token, version: s.version, action: action.text });
  }

  const legalOf = (verb) => s.legal.filter((a) => a.verb === verb);
  const playsOf = (code) => s.legal.filter((a) => (a.verb === "play" || a.verb === "jump") && a.card === code);

  function chooseCard(code) {
    const plays = playsOf(code);
    if (!plays.length) {
      showError(t("web.table.cannot_play", { card: cardName(code) }), "R4.1");
      return;
    }
    const withUno = s.unoArmed && plays.some((a) => a.uno);
    if (plays.some((a) => a.color)) {
      s.picker = { card: code, uno: withUno };
      render();
      return;
    }
    send(plays.find((a) => a.uno === withUno) || plays[0]);
  }

  function chooseColor(color) {
    if (s.picker) {
      const play = playsOf(s.picker.card).find((a) => a.color === color && a.uno === s.picker.uno);
      if (play) send(play);
      return;
    }
    const choice = legalOf("color").find((a) => a.color === color);
    if (choice) send(choice);
  }

  function pressUno() {
    const say = legalOf("uno")[0];
    if (say) { send(say); return; }
    if (s.legal.some((a) => a.uno)) { s.unoArmed = !s.unoArmed; render(); }
  }

  // ------------------------------------------------------------------ screens
  async function start() {
    screen.replaceChildren(el("p.empty", { style: "text-align:center;padding:2em" }, t("web.loading")));
    if (s.token || s.watch) { connect(); return; }
    try {
      s.table = await api(`/api/tables/${code}`);
    } catch (err) {
      if (closed) return;
      screen.replaceChildren(el("div.waiting", {}, el("section.panel", {}, el("h2", {}, t("web.error.no_such_table")), el("p", {}, err.message),
        el("a.btn.btn-primary", { href: "/", onclick: (e) => { e.preventDefault(); navigate("/"); } }, t("web.back_to_lobby")))));
      return;
    }
    if (closed) return;
    if (s.table.status === "lobby" && s.table.seats.some((seat) => seat.kind === "empty")) {
      // Watch while choosing a seat: a seat someone takes meanwhile leaves the list at once.
      s.joining = true;
      s.seats = s.table.seats;
      renderJoin();
      connect();
    } else { s.watch = true; connect(); }
  }

  async function joinSeat(name, seat) {
    if (!name) { showError(t("web.lobby.name_needed")); return; }
    try {
      const joined = await api(`/api/tables/${code}/join`, seat === undefined ? { name } : { name, seat });
      saveName(name);
      s.token = joined.token;
      localStorage.setItem(tokenKey(code), joined.token);
      if (closed) return; // the seat is kept (its token saved) for when the player comes back
      if (s.socket) s.socket.close();
      s.watch = false;
      s.joining = false;
      connect();
    } catch (err) {
      showError(err.message);
    }
  }

  function renderJoin() {
    const name = el("input", { type: "text", id: "join-name", maxlength: 24, value: savedName(), placeholder: t("web.lobby.name_placeholder"), autocomplete: "nickname" });
    const form = el("form", {}, el("label.field", {}, el("span", {}, t("web.lobby.your_name")), name),
      el("div.row", {}, el("button.btn.btn-primary", { type: "submit", id: "join-btn" }, t("web.join.take_seat")),
        el("button.btn.btn-ghost", { type: "button", onclick: () => { s.joining = false; s.watch = true; render(); } }, t("web.lobby.watch"))));
    form.addEventListener("submit", (event) => { event.preventDefault(); joinSeat(name.value.trim()); });
    screen.replaceChildren(el("div.waiting", { id: "join-page" }, el("section.panel", {}, el("h2", {}, t("web.join.title", { code })), seatList(), form)));
    name.focus();
  }

  /** The join page's seats again (a `table` message came), keeping what was typed. */
  function updateJoin() {
    const list = screen.querySelector("#join-page #seats");
    if (list) list.replaceWith(seatList());
    else renderJoin();
  }

  function seatList() {
    const table = s.table;
    const mine = s.seat !== null && s.token;
    const list = el("ul.list.seats-list", { id: "seats" });
    for (const seat of s.seats.length ? s.seats : table.seats) {
      const who = seat.kind === "empty" ? el("span.empty", {}, t("web.wait.empty_seat"))
        : el("span.who", {}, el("strong", {}, seat.kind === "bot" ? t("web.lobby.bot_level", { level: levelName(seat.level) }) : nameEl(seat.name)),
          seat.seat === s.seat ? el("span.badge.badge-you", {}, t("web.you")) : null,
          seat.kind === "bot" ? el("span.badge.badge-bot", {}, t("web.wait.bot")) : null,
          seat.kind === "human" && !seat.connected && seat.seat !== s.seat ? el("span.badge.badge-off", {}, t("web.table.offline")) : null);
      const tools = el("div.row");
      if (table.status === "lobby" && mine && seat.kind !== "human") {
        const level = el("select", { "aria-label": t("web.wait.bot_for", { n: seat.seat + 1 }) });
        if (seat.kind === "empty") level.append(new Option(t("web.wait.add_bot"), ""));
        else level.append(new Option(t("web.wait.remove_bot"), "none"));
        for (const name of BOT_LEVELS) level.append(new Option(t("web.lobby.bot_level", { level: t(`web.level.${name}`) }), name, false, seat.level === name));
        level.addEventListener("change", () => {
          if (level.value) s.socket.send({ type: "bot", token: s.token, seat: seat.seat, level: level.value === "none" ? null : level.value });
        });
        tools.append(level);
      }
      if (table.status === "lobby" && !mine && seat.kind === "empty" && (s.joining || !s.watch)) {
        tools.append(el("button.btn.btn-small", { type: "button", onclick: () => joinSeat((document.getElementById("join-name")?.value || savedName()).trim(), seat.seat) }, t("web.join.sit_here")));
      }
      list.append(el("li", { dataset: { seat: seat.seat } }, el("div", {}, el("span.sub", {}, t("web.lobby.seat_n", { n: seat.seat + 1 })), " ", who), tools));
    }
    return list;
  }

  function renderWaiting() {
    const table = s.table;
    const link = `${location.origin}/t/${code}`; // the address this page was reached by, which friends can reach too
    const linkField = el("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-label": t("web.wait.link") });
    const copyLink = el("button.btn", { type: "button", id: "copy-link" }, t("web.wait.copy_link"));
    copyLink.addEventListener("click", () => copyText(link, copyLink));
    const copyCode = el("button.btn.btn-small.btn-ghost", { type: "button" }, t("web.wait.copy_code"));
    copyCode.addEventListener("click", () => copyText(code, copyCode));
    const full = table.seats.every((seat) => seat.kind !== "empty");
    const seated = s.seat !== null && s.token;
    const options = Object.entries(table.options).filter(([name, value]) => value === true).map(([name]) => t(`web.rule.${name}`));
    screen.replaceChildren(el("div.waiting", { id: "waiting-room" }, el("section.panel", {},
      el("h2", {}, t("web.wait.title")),
      el("p", {}, t("web.wait.invite")),
      el("div.row", { style: "margin-bottom:.6em" }, el("span.code-big", { id: "table-code" }, code), copyCode),
      el("div.invite", {}, linkField, copyLink),
      el("h3", {}, t("web.wait.seats")),
      seatList(),
      el("p.sub", { style: "color:var(--muted)" }, t("web.wait.rules", {
        target: t("web.wait.target", { n: table.options.target_score }), hand: t("web.wait.hand", { n: table.options.hand_size }),
        timer: table.turn_timer ? t("web.lobby.timer_n", { n: table.turn_timer }) : t("web.lobby.timer_none"),
        rules: options.length ? options.join(", ") : t("web.wait.no_house_rules"),
      })),
      seated ? el("div.row", {},
        el("button.btn.btn-primary", { type: "button", id: "start-btn", disabled: !full, onclick: () => s.socket.send({ type: "start", token: s.token }) }, full ? t("web.wait.start") : t("web.wait.fill_seats")),
        el("button.btn.btn-ghost", { type: "button", onclick: leave }, t("web.wait.leave")))
        : el("p.empty", {}, t("web.wait.spectating")))));
  }

  function leave() {
    if (s.token) s.socket.send({ type: "leave", token: s.token });
    if (s.table.status === "lobby") localStorage.removeItem(tokenKey(code));
    navigate("/");
  }

  // ------------------------------------------------------------------ the game
  function render() {
    if (s.joining) { if (s.table) updateJoin(); return; }
    if (!s.table && !s.view) return;
    document.getElementById("top-meta").textContent = s.view
      ? t("web.table.meta", { code, round: s.view.round }) : t("web.table.meta_lobby", { code });
    if (!s.view || (s.table && s.table.status === "lobby")) {
      if (s.table) renderWaiting();
      return;
    }
    document.getElementById("help-btn").classList.remove("hidden");
    const focused = document.activeElement?.dataset?.handIndex;
    const view = s.view;
    const me = s.seat;
    const catchable = new Map(legalOf("catch").map((a) => [a.target, a]));
    const pickTargets = new Map([...legalOf("target"), ...legalOf("swap")].map((a) => [a.target, a]));
    const opponents = renderOpponents(view, seatsAfter(me, view.players.length), {
      me, seatInfo: s.seats,
      extra: (seat) => [
        catchable.has(seat) ? el("button.btn.btn-danger.btn-small.catch", { type: "button", dataset: { catch: seat }, onclick: () => send(catchable.get(seat)) }, t("web.table.catch")) : null,
        pickTargets.has(seat) ? el("button.btn.btn-primary.btn-small", { type: "button", dataset: { pick: seat }, onclick: () => send(pickTargets.get(seat)) }, t(`web.table.pick_${pickTargets.get(seat).verb}`)) : null,
      ],
    });
    const canDraw = legalOf("draw").length > 0;
    const center = renderCenter(view, { canDraw, onDraw: () => canDraw && send(legalOf("draw")[0]) });
    const board = el("div.board", {}, opponents, center, renderPrompt(), renderDecision(), me !== null ? renderHand() : null);
    const side = el("aside.side", {}, renderScores(view, s.table?.options?.target_score ?? ""), el("section.panel", {}, el("h2", {}, t("web.table.log")), log));
    screen.replaceChildren(el("div.game", { id: "game", dataset: { awaiting: view.awaiting, mine: String(view.to_act === me && me !== null), version: s.version, round: view.round } }, board, side));
    log.scrollTop = log.scrollHeight; // only now is the log laid out
    const hand = screen.querySelector("#hand");
    if (hand) layoutHand(hand);
    if (focused !== undefined) screen.querySelector(`[data-hand-index="${focused}"]`)?.focus();
    if (s.pendingFx) { itemEffect(s.pendingFx); s.pendingFx = null; }
    else placeEffect();
    renderSummary();
  }

  function renderPrompt() {
    const view = s.view;
    const mine = view.to_act === s.seat && s.seat !== null;
    const text = mine ? t(`web.prompt.${view.awaiting}`, { n: view.pending, card: view.drawn ? cardName(view.drawn) : "" }) : awaitingText(view);
    const timer = el("span.timer", { id: "timer" });
    clearInterval(tick);
    if (s.deadline) {
      const update = () => { timer.textContent = ` · ${t("web.table.seconds_left", { s: Math.max(0, Math.ceil((s.deadline.at - Date.now()) / 1000)) })}`; };
      update();
      tick = setInterval(update, 500);
    }
    const away = s.seat !== null && s.seats[s.seat]?.away;
    return el(`div.prompt${mine ? ".mine" : ""}`, { id: "prompt", role: "status" }, text, timer,
      away ? el("div.away-note", { id: "away-note" }, t("web.table.you_are_away")) : null);
  }

  function renderDecision() {
    const box = el("div.decision", { id: "decision" });
    const view = s.view;
    if (s.reveal) {
      box.append(el("div.title", {}, tNodes("web.table.revealed", { name: nameEl(view.players[s.reveal.seat]) })),
        el("div.reveal", { id: "reveal" }, sortHand(s.reveal.cards).map(({ code }) => cardElement(code, { size: "md" }))));
    }
    if (s.picker || legalOf("color").length) {
      box.append(el("div.title", {}, s.picker ? tNodes("web.table.color_for", { card: cardRef(s.picker.card) }) : t("web.table.choose_color")));
      for (const color of COLORS) {
        box.append(el(`button.color-btn.${color}`, { type: "button", dataset: { color }, onclick: () => chooseColor(color) }, colorChip(color).textContent, " ", t(`core.color.${color}`)));
      }
      if (s.picker) box.append(el("button.btn.btn-ghost", { type: "button", onclick: () => { s.picker = null; render(); } }, t("web.cancel")));
      return box;
    }
    const action = (verb, label, key, extraClass = "") => {
      const act = legalOf(verb)[0];
      return act ? el(`button.btn${extraClass}`, { type: "button", dataset: { verb }, onclick: () => send(act) }, label, " ", el("kbd", {}, key)) : null;
    };
    if (view.awaiting === "drawn" && view.to_act === s.seat && view.drawn) {
      box.append(el("button.btn.btn-primary", { type: "button", dataset: { verb: "play-drawn" }, onclick: () => chooseCard(view.drawn) }, t("web.table.play_drawn", { card: cardName(view.drawn) }), " ", el("kbd", {}, "Enter")));
    }
    box.append(...[
      action("draw", t("web.table.draw"), "D"),
      action("pass", t("web.table.keep"), "P"),
      action("challenge", t("web.table.challenge"), "C", ".btn-danger"),
      action("accept", t(view.awaiting === "challenge" ? "web.table.accept_four" : "web.table.accept_n", { n: view.pending }), "A"),
    ].filter(Boolean));
    const targets = [...legalOf("target"), ...legalOf("swap")];
    if (targets.length) {
      box.append(el("div.title", {}, t(`web.table.choose_${targets[0].verb}`)));
      targets.forEach((a, i) => box.append(el("button.btn.btn-primary", { type: "button", dataset: { target: a.target }, onclick: () => send(a) },
        tNodes("web.table.target_btn", { name: nameEl(view.players[a.target]), n: handSize(view, a.target) }), " ", el("kbd", {}, i + 1))));
    }
    return box;
  }

  function renderHand() {
    const view = s.view;
    const hand = view.hands[s.seat];
    const playable = new Set(s.legal.filter((a) => a.verb === "play" || a.verb === "jump").map((a) => a.card));
    const jumping = s.legal.some((a) => a.verb === "jump");
    const myTurn = view.to_act === s.seat;
    const row = el("div.hand", { id: "hand", dir: "ltr", role: "group", "aria-label": t("web.table.your_hand", { n: hand.length }) });
    sortHand(hand).forEach(({ code }, position) => {
      const card = cardElement(code, { tag: "button" });
      card.type = "button";
      card.dataset.handIndex = position;
      card.classList.add(playable.has(code) ? "playable" : myTurn ? "dim" : "waiting");
      if (view.drawn === code && view.awaiting === "drawn") card.classList.add("drawn-new");
      if (position < 10) card.append(el("span.key", { "aria-hidden": "true" }, (position + 1) % 10));
      card.addEventListener("click", () => chooseCard(code));
      row.append(card);
    });
    const unoPossible = legalOf("uno").length > 0 || s.legal.some((a) => a.uno);
    const uno = unoPossible ? el(`button.uno-btn${s.unoArmed ? ".armed" : ""}`, {
      type: "button", id: "uno-btn", onclick: pressUno, "aria-pressed": String(s.unoArmed),
      title: legalOf("uno").length ? t("web.table.uno_say") : t("web.table.uno_arm"),
    }, "UNO!") : null;
    return el("section.hand-area", {},
      el("div.hand-tools", {},
        el("span.me", {}, tNodes("web.table.you_are", { name: nameEl(view.players[s.seat]) })),
        jumping ? el("span.badge", {}, t("web.table.jump_in")) : null,
        el("span.shortcuts", {}, el("kbd", {}, "\u2190\u2192"), el("kbd", {}, "Enter"), " ", t("web.keys.play"), " · ", el("kbd", {}, "D"), " ", t("web.keys.draw"), " · ", el("kbd", {}, "U"), " UNO · ", el("kbd", {}, "?"))),
      uno ? el("div.uno-wrap", {}, uno) : null,
      unoPossible && !legalOf("uno").length ? el("p.shortcuts", { style: "display:block" }, s.unoArmed ? t("web.table.uno_armed") : t("web.table.uno_hint")) : null,
      row);
  }

  // ------------------------------------------------------------------ items, summaries
  // The item's moment of glory flies over a part of the table where nothing can be clicked now
  // (the pile, else the opponents), never over a decision; with no such place it joins the prompt.
  function itemEffect(event) {
    const icons = el("div.icons", {}, cardElement(event.card));
    icons.insertAdjacentHTML("beforeend", itemSvg(event.item, 64));
    const fx = el("div.item-fx", { id: "item-fx", role: "status", dataset: { item: event.item } },
      el("div.box", {}, icons, el("div.name", {}, t(`core.item.${event.item}`)), el("div.what", {}, describeEvent(event, s.view.players, s.seat) || "")));
    document.getElementById("item-fx")?.remove();
    document.body.append(fx);
    placeEffect();
    setTimeout(() => fx.remove(), 2300);
  }

  function placeEffect() {
    const fx = document.getElementById("item-fx");
    if (!fx) return;
    const controls = [...screen.querySelectorAll("button:not(:disabled), select, input, a[href]")]
      .map((node) => node.getBoundingClientRect()).filter((r) => r.width && r.height);
    const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const spot = ["#game .center", "#game .opponents"].map((sel) => screen.querySelector(sel)?.getBoundingClientRect())
      .find((r) => r && r.height > 100 && !controls.some((c) => overlaps(r, c)));
    fx.classList.toggle("inline", !spot);
    if (!spot) { // no free place: a line under the prompt, covering nothing
      screen.querySelector("#prompt")?.after(fx);
      fx.removeAttribute("style");
      return;
    }
    if (fx.parentNode !== document.body) document.body.append(fx);
    Object.assign(fx.style, { left: `${spot.left + scrollX}px`, top: `${spot.top + scrollY}px`, width: `${spot.width}px`, height: `${spot.height}px` });
  }

  function renderSummary() {
    const dialog = document.getElementById("summary-dialog");
    const view = s.view;
    const over = view.awaiting === "round_over" || view.awaiting === "game_over";
    const key = `${view.awaiting}:${s.version}`; // one summary per ended round (nothing moves the version until the next deal)
    // The summary stays up until its reader closes it, even once the next round is dealt.
    if (!over || s.summaryFor === key) return;
    s.summaryFor = key;
    const end = s.roundEnd && s.roundEnd.scores ? s.roundEnd : { winner: view.round_winner, hand_points: view.players.map(() => null), scores: view.scores, points: null };
    const rows = view.players.map((name, seat) => el(`tr${seat === end.winner ? ".winner" : ""}`, {},
      el("td", {}, seat === end.winner ? "\u2605 " : "", nameEl(name)),
      el("td.num", {}, end.hand_points[seat] ?? "–"),
      el("td.num", {}, seat === end.winner ? el("bdi", { dir: "ltr" }, `+${end.points}`) : ""), // "+230", never "230+"
      el("td.num", {}, end.scores[seat])));
    const gameOver = view.awaiting === "game_over";
    const canRematch = gameOver && s.token && s.seat !== null;
    dialog.replaceChildren(...[
      gameOver ? trophy() : null,
      el("h2", { id: "summary-title" }, gameOver ? t("web.summary.game_title") : t("web.summary.round_title", { round: view.round })),
      el("p.winner-line", {}, gameOver ? tNodes("core.event.game_end", { name: nameEl(view.players[view.game_winner]) }) : tNodes("core.event.round_end", { name: nameEl(view.players[end.winner]), count: end.points })),
      el("table.summary-table", { id: "summary-table" },
        el("thead", {}, el("tr", {}, el("th", {}, t("web.table.player")), el("th.num", {}, t("web.summary.hand_points")), el("th.num", {}, t("web.summary.won")), el("th.num", {}, t("core.scores")))),
        el("tbody", {}, rows)),
      el("p.sub", { style: "color:var(--muted)" }, gameOver ? t("web.summary.target", { n: s.table?.options?.target_score ?? 500 }) : t("web.summary.next_round")),
      el("div.row", { style: "justify-content:flex-end" },
        canRematch ? el("button.btn.btn-primary", { type: "button", id: "rematch-btn", onclick: () => { s.socket.send({ type: "rematch", token: s.token }); dialog.close(); } }, t("web.summary.rematch")) : null,
        gameOver ? el("a.btn", { href: "/", onclick: (e) => { e.preventDefault(); dialog.close(); navigate("/"); } }, t("web.back_to_lobby")) : null,
        el("button.btn" + (gameOver ? ".btn-ghost" : ".btn-primary"), { type: "button", id: "summary-close", onclick: () => dialog.close() }, t(gameOver ? "web.close" : "web.summary.continue")))].filter(Boolean));
    dialog.showModal();
  }

  function trophy() {
    const node = el("p.trophy", { "aria-hidden": "true" });
    node.innerHTML = TROPHY_SVG;
    return node;
  }

  // ------------------------------------------------------------------ keyboard
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]") || ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) return;
    if (!s.view || s.seat === null) return;
    const key = event.key;
    const cards = [...screen.querySelectorAll("#hand .card")];
    const current = cards.indexOf(document.activeElement);
    const pickers = [...screen.querySelectorAll("#decision [data-target]")];
    const byVerb = (verb) => screen.querySelector(`#decision [data-verb="${verb}"]`);
    let handled = true;
    if (key === "ArrowRight" || key === "ArrowLeft") {
      const step = key === "ArrowRight" ? 1 : -1;
      cards[(current + step + cards.length) % cards.length]?.focus();
    } else if (/^[0-9]$/.test(key)) {
      const index = (Number(key) + 9) % 10;
      if (pickers.length) pickers[index]?.click();
      else cards[index]?.focus();
    } else if ((s.picker || legalOf("color").length) && "rygbRYGB".includes(key) && key.length === 1) {
      chooseColor(key.toUpperCase());
    } else if (key === "Enter" && byVerb("play-drawn")) {
      byVerb("play-drawn").click(); // only the drawn card may be played now (R4.3), whatever has the focus
    } else if (key === "d" || key === "D") byVerb("draw")?.click();
    else if (key === "p" || key === "P") byVerb("pass")?.click();
    else if (key === "c" || key === "C") byVerb("challenge")?.click();
    else if (key === "a" || key === "A") byVerb("accept")?.click();
    else if (key === "u" || key === "U") pressUno();
    else if (key === "k" || key === "K") screen.querySelector("[data-catch]")?.click();
    else if (key === "Escape" && s.picker) { s.picker = null; render(); }
    else if (key === "?") openKeys();
    else handled = false;
    if (handled) event.preventDefault();
  }

  function openKeys() {
    const list = document.getElementById("keys-list");
    list.replaceChildren(...KEYS.map(([keys, label]) => el("li", {}, el("span", {}, t(label)), el("kbd", {}, keys))));
    document.getElementById("keys-dialog").showModal();
  }

  const helpButton = document.getElementById("help-btn");
  helpButton.addEventListener("click", openKeys);
  document.addEventListener("keydown", onKey);
  start();
  return {
    close() {
      closed = true;
      clearInterval(tick);
      document.removeEventListener("keydown", onKey);
      helpButton.removeEventListener("click", openKeys);
      document.getElementById("summary-dialog").close();
      if (s.socket) s.socket.close();
    },
  };
}
