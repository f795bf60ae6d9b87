// The table's state module (src/unokart/web/js/state.js), pure: server messages in, state and moments out.
// Run with Node's own test runner: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import * as S from "../../src/unokart/web/js/state.js";

const seats = [{ seat: 0, kind: "human", name: "Ann" }, { seat: 1, kind: "bot", level: "easy" }, { seat: 2, kind: "human", name: "Bob" }];
const table = (status = "playing", seatList = seats) => ({ type: "table", table: { code: "K7Q2XM", status, game: 1, seats: seatList, options: { target_score: 500 }, turn_timer: 30 } });

function view(extra = {}) {
  return {
    round: 1, dealer: 0, direction: 1, to_act: 1, awaiting: "play", top: "R5", color: "R",
    hands: [["R1", "G7"], 5, 4], stock: 80, discard: 3, uno_said: [false, false, false], scores: [0, 0, 0],
    round_winner: null, game_winner: null, seat: 0, players: ["Ann", "Bot 1 (easy)", "Bob"], pending: 0, drawn: null, ...extra,
  };
}

const stateMsg = (version, events = [], extra = {}) => ({ type: "state", version, game: 1, view: view(extra.view), legal: extra.legal ?? [], events, deadline: extra.deadline ?? null, seats });

/** A seat that has its first (backlog) state already. */
function seated() {
  let s = S.initialState({ code: "K7Q2XM", token: "tok" });
  s = S.receive(s, { type: "welcome", seat: 0 }).state;
  s = S.receive(s, table()).state;
  return S.receive(s, stateMsg(1, [{ type: "round_start", round: 1, dealer: 0, i: 0 }])).state;
}

test("the screen follows the state: loading, join, waiting room, game", () => {
  let s = S.initialState({ code: "K7Q2XM" });
  assert.equal(S.screenOf(s), "loading");
  s = { ...s, joining: true };
  assert.equal(S.screenOf(s), "loading");
  s = S.receive(s, table("lobby", [...seats.slice(0, 2), { seat: 2, kind: "empty" }])).state;
  assert.equal(S.screenOf(s), "join");
  s = S.receive(s, table("lobby")).state; // the last seat was taken meanwhile: watch
  assert.equal(s.joining, false);
  assert.equal(S.screenOf(s), "waiting");
  s = S.receive(s, stateMsg(1)).state;
  assert.equal(S.screenOf(s), "game");
  assert.equal(s.table.status, "playing");
});

test("the first state after a connection is a backlog: its events are logged, nothing is shown as a moment", () => {
  let s = S.initialState({ code: "K7Q2XM", token: "tok" });
  s = S.receive(s, { type: "welcome", seat: 0 }).state;
  const out = S.receive(s, stateMsg(3, [{ type: "play", seat: 1, card: "R5", i: 4 }]));
  assert.equal(out.events.length, 1);
  assert.deepEqual(out.moments, []);
  assert.equal(out.state.backlog, false);
});

test("events seen before are dropped (a reconnection resends the round)", () => {
  const s = seated();
  const again = S.receive(s, stateMsg(2, [{ type: "round_start", round: 1, dealer: 0, i: 0 }, { type: "play", seat: 1, card: "R5", i: 1 }]));
  assert.deepEqual(again.events.map((e) => e.i), [1]);
  const stored = S.markSeen(S.initialState({ code: "K7Q2XM" }), [{ round: 1, event: { i: 7 } }]);
  assert.ok(stored.seen.has("1:7"));
});

test("a card played is a moment that moves and sounds; UNO said with it (its own event) is announced once", () => {
  const out = S.receive(seated(), stateMsg(2, [{ type: "play", seat: 2, card: "R9", uno: true, i: 1 }, { type: "uno", seat: 2, i: 2 }]));
  assert.deepEqual(out.moments.map((m) => m.kind), ["play", "announce"]);
  assert.equal(out.moments[0].sound, "play");
  assert.deepEqual([out.moments[1].what, out.moments[1].seat, out.moments[1].sound], ["uno", 2, "uno"]);
});

test("draws, items, the shell's target, a reverse, a catch, winners: each its moment", () => {
  const events = [
    { type: "draw", seat: 2, count: 2, cause: "banana", i: 1 },
    { type: "draw", seat: 1, count: 0, i: 2 },
    { type: "item", seat: 1, item: "banana", card: "Y3", victim: 2, i: 3 },
    { type: "green_shell_target", seat: 1, target: 0, i: 4 },
    { type: "reverse", direction: -1, i: 5 },
    { type: "caught", seat: 0, target: 2, i: 6 },
    { type: "round_end", winner: 1, points: 30, i: 7 },
    { type: "game_end", winner: 1, i: 8 },
  ];
  const moments = S.receive(seated(), stateMsg(2, events)).moments;
  assert.deepEqual(moments.map((m) => m.kind), ["draw", "item", "shell", "direction", "announce", "announce", "announce"]);
  assert.deepEqual([moments[0].count, moments[0].sound], [2, "draw"], "a draw of no card is not shown");
  assert.deepEqual([moments[1].item, moments[1].victim, moments[1].sound], ["banana", 2, "banana"]);
  assert.deepEqual(moments.slice(4).map((m) => [m.what, m.sound]), [["caught", "catch"], ["round", "round_won"], ["game", "game_won"]]);
});

test("a challenge sounds won to its winner and lost to its loser", () => {
  const guilty = { type: "challenge", seat: 0, target: 2, guilty: true };
  assert.equal(S.challengeSound(guilty, 0), "challenge_won");
  assert.equal(S.challengeSound(guilty, 2), "challenge_lost");
  assert.equal(S.challengeSound({ ...guilty, guilty: false }, 0), "challenge_lost");
  assert.equal(S.challengeSound({ ...guilty, guilty: false }, 2), "challenge_won");
  const moment = S.receive(seated(), stateMsg(2, [{ ...guilty, i: 1 }])).moments[0];
  assert.deepEqual([moment.what, moment.seat, moment.target], ["challenge_won", 0, 2]);
});

test("the turn becoming the reader's is a moment once, not again while it stays theirs", () => {
  const legal = ["0: play R1", "0: draw"];
  const first = S.receive(seated(), stateMsg(2, [], { view: { to_act: 0 }, legal }));
  assert.deepEqual(first.moments.map((m) => m.kind), ["your_turn"]);
  const again = S.receive(first.state, stateMsg(3, [], { view: { to_act: 0, awaiting: "drawn" }, legal: ["0: pass"] }));
  assert.deepEqual(again.moments, []);
});

test("a card with a colour opens the picker; UNO armed is played with the card", () => {
  let s = S.receive(seated(), stateMsg(2, [], { view: { to_act: 0 }, legal: ["0: play W+4 R", "0: play W+4 G", "0: play W+4 R uno", "0: play W+4 G uno", "0: play R1", "0: play R1 uno"] })).state;
  assert.equal(S.chooseCard(s, "B9").refuse, true);
  assert.equal(S.chooseCard(s, "R1").action.text, "0: play R1");
  s = S.pressUno(s).state;
  assert.equal(s.unoArmed, true);
  assert.equal(S.chooseCard(s, "R1").action.text, "0: play R1 uno");
  s = S.chooseCard(s, "W+4").state;
  assert.deepEqual(s.picker, { card: "W+4", uno: true });
  assert.equal(S.chooseColor(s, "G").text, "0: play W+4 G uno");
  assert.equal(S.sending(s).picker, null);
});

test("a refused token is forgotten; a stale version asks for a sync; a refusal is shown", () => {
  const s = { ...seated(), busy: true };
  const bad = S.receive(s, { type: "error", code: "bad_token" });
  assert.deepEqual([bad.state.token, bad.state.busy, bad.command.kind], [null, false, "forget_token"]);
  assert.equal(S.receive(s, { type: "error", code: "stale_version" }).command.kind, "sync");
  assert.equal(S.receive(s, { type: "error", code: "rate_limited" }).command, null);
  assert.equal(S.receive(s, { type: "error", code: "illegal_action", rule: "R4.1" }).command.error.rule, "R4.1");
});

test("a missed version is noticed: the next state asks for the whole state again, consecutive ones do not", () => {
  const s = seated(); // at version 1
  assert.equal(S.receive(s, stateMsg(2)).command, null);
  const jumped = S.receive(s, stateMsg(4, [{ type: "play", seat: 1, card: "R5", i: 3 }]));
  assert.equal(jumped.command.kind, "sync");
  assert.equal(jumped.state.version, 4);
  assert.equal(S.receive(jumped.state, stateMsg(4)).command, null); // the whole state, at the version we have
  assert.equal(S.receive(s, stateMsg(1)).command, null); // an away seat's news: same version
  let fresh = S.receive(S.initialState({ code: "K7Q2XM", token: "tok" }), { type: "welcome", seat: 0 }).state;
  assert.equal(S.receive(fresh, stateMsg(40)).command, null); // the first state after a connection is whole
});

test("a reveal is kept for its challenger until the next round; the round's end is kept for the summary", () => {
  let s = S.receive(seated(), stateMsg(2, [{ type: "reveal", seat: 2, to: 0, cards: ["G1"], i: 1 }, { type: "round_end", winner: 2, points: 9, i: 2 }])).state;
  assert.deepEqual(s.reveal, { seat: 2, cards: ["G1"] });
  assert.equal(s.roundEnd.points, 9);
  s = S.receive(s, stateMsg(3, [], { view: { round: 2 } })).state;
  assert.equal(s.reveal, null);
});

test("the notation's actions are parsed", () => {
  assert.deepEqual(S.parseAction("2: play W+4 G uno"), { seat: 2, verb: "play", card: "W+4", color: "G", target: null, uno: true, text: "2: play W+4 G uno" });
  assert.equal(S.parseAction("1: catch 3").target, 3);
  assert.equal(S.parseAction("0: color Y").color, "Y");
});

test("messages the state does not know leave it as it was", () => {
  const s = seated();
  assert.equal(S.receive(s, { type: "pong" }).state, s);
});

// ------------------------------------------------------------------ chat and reactions (issue 21, item 5)

test("chat: a history on hello replaces the chat, each message is added, a reaction is a moment", () => {
  let s = seated();
  s = S.receive(s, { type: "chat_history", messages: [{ type: "chat", seat: 2, name: "Bob", text: "hi", at: 1 }] }).state;
  assert.deepEqual(s.chat, [{ seat: 2, name: "Bob", text: "hi", at: 1 }]);
  const out = S.receive(s, { type: "chat", seat: 0, name: "Ann", text: "<b>gg</b>", at: 2, re: "c1" });
  assert.equal(out.state.chat.length, 2);
  assert.equal(out.state.chat[1].text, "<b>gg</b>"); // kept as written: the view shows it as text
  const react = S.receive(out.state, { type: "react", seat: null, emoji: "\u{1F389}" });
  assert.deepEqual(react.moments, [{ kind: "react", seat: null, emoji: "\u{1F389}" }]);
  assert.equal(react.state, out.state);
});

test("chat: muting a player hides their messages on this screen only, and unmuting brings them back", () => {
  let s = seated();
  s = S.receive(s, { type: "chat_history", messages: [{ seat: 2, name: "Bob", text: "a", at: 1 }, { seat: 0, name: "Ann", text: "b", at: 2 }] }).state;
  const muted = S.toggleMute(s, 2, "Bob");
  assert.deepEqual(S.visibleChat(muted).map((m) => m.text), ["b"]);
  assert.deepEqual(S.mutedPlayers(muted), [{ seat: 2, name: "Bob" }]);
  assert.equal(s.muted.size, 0, "the state before is unchanged");
  assert.deepEqual(S.visibleChat(S.toggleMute(muted, 2, "Bob")).map((m) => m.text), ["a", "b"]);
  // Someone else in the same seat is not muted.
  assert.equal(S.isMuted(muted, 2, "Cy"), false);
});

test("chat: a refused message of one's own is shown (a rate limit too); other rate limits stay quiet", () => {
  let s = S.sentChat(seated(), "m7");
  const refused = S.receive(s, { type: "error", code: "bad_text", message: "no U+202E", re: "m7" });
  assert.equal(refused.command.kind, "error");
  const limited = S.receive(s, { type: "error", code: "rate_limited", message: "slow down", re: "m7" });
  assert.equal(limited.command.kind, "error");
  assert.equal(S.receive(s, { type: "error", code: "rate_limited", re: "m8" }).command, null);
  assert.equal(S.sentChat(s, null), s, "a message not sent (no connection) is not waited for");
});

test("the players muted before come back muted, and only well-formed keys are kept", () => {
  const s = S.initialState({ code: "K7Q2XM", muted: ["2:Bob", 7, null] });
  assert.deepEqual(S.mutedPlayers(s), [{ seat: 2, name: "Bob" }]);
  assert.equal(S.isMuted(s, 2, "Bob"), true);
  assert.equal(S.isMuted(s, 2, "Eve"), false);
});
