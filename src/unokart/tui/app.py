"""The terminal screen: drawn from a TableSource (view + legal actions + events), driven by keys."""

from __future__ import annotations

import time

from rich import box
from rich.align import Align
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import RichLog, Static

from ..i18n import current_language, t
from ..narrate import card_name, describe_event, describe_refusal
from ..rules import Action, IllegalAction, UnoKartError
from ..rules.actions import (
    ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, JUMP, PASS, PLAY, SWAP, TARGET, UNO,
)
from ..rules.cards import COLORS, FACE_CODE, WILD_DRAW_FOUR, parse_card
from ..rules.states import AWAIT_PLAY, AWAIT_TARGET, GAME_OVER, ROUND_OVER
from . import cells
from .render import CELL, card, hand_rows, shape, sort_hand
from .screens import QuitScreen, RulesScreen
from .source import TableError, TableSource

LOBBY_BOT = "heuristic"  # the level s seats in a lobby's empty seats
# Languages written right to left: their lines are aligned right (the text itself stays in logical order:
# a terminal that applies the bidirectional algorithm shows it right to left; README.md says which do).
RIGHT_TO_LEFT = frozenset(("sd",))
# Events worth a bold line in the log.
_LOUD = frozenset(("item", "challenge", "caught", "uno", "round_end", "game_end", "jump_in"))


def _seat_list(seats: list[int], names: list[str]) -> str:
    return ", ".join(f"{seat} {names[seat]}" for seat in seats)


def key_line(keys: list[tuple[str, str]], width: int) -> Text:
    """The keys that apply, packed into lines of ``width`` cells; a key and its label never part."""
    out, used = Text(), 0
    for key, label in keys:
        size = cell_len(f" {key}  {label}  ")
        if used and used + size - 2 > width:  # the last label's trailing gap may fall off the edge
            out.append("\n")
            used = 0
        out.append(f" {key} ", style="reverse bold")
        out.append(f" {label}  ")
        used += size
    out.rstrip()
    return out


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` terminal cells: padded, or cut at its end with an ellipsis."""
    rich_text = Text(text)
    rich_text.truncate(width, overflow="ellipsis", pad=True)
    return rich_text.plain


def refusal_text(err: Exception, names: list[str]) -> tuple[str, str | None]:
    """A refusal in the player's words, and the rule id for the help line (None when no rule applies)."""
    if isinstance(err, IllegalAction):  # the core's refusal by its key and parameters, not its English sentence
        return describe_refusal(err, names=names), err.rule or None
    return str(err), getattr(err, "rule", None)


class PlayApp(App):
    """One seat at a table: a local game against bots or a remote table."""

    CSS = """
    Screen { layout: vertical; padding-right: 1; }
    #status { height: auto; background: $primary-background; }
    #players { height: auto; }
    #table { height: auto; }
    #log { height: 1fr; min-height: 2; border-top: solid $secondary; border-bottom: solid $secondary; }
    #prompt { height: auto; }
    #hand { height: auto; }
    #keys { height: auto; background: $primary-background; }
    .rtl Static { text-align: right; }
    """
    ENABLE_COMMAND_PALETTE = False  # Textual's palette speaks only English
    BINDINGS = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("enter", "play", show=False),
        Binding("d", "draw", show=False),
        Binding("p", "keep", show=False),
        *(Binding(c.lower(), f"color('{c}')", show=False) for c in COLORS),
        Binding("c", "challenge", show=False),
        Binding("a", "accept", show=False),
        Binding("u", "uno", show=False),
        Binding("k", "catch", show=False),
        Binding("n", "next_round", show=False),
        Binding("s", "fill_seats", show=False),
        Binding("h", "come_back", show=False),
        Binding("q", "ask_quit", show=False),
        # Textual's own quit keys ask first too (ctrl+q left at once; ctrl+c showed an English notice).
        Binding("ctrl+q", "ask_quit", show=False, priority=True),
        Binding("ctrl+c", "ask_quit", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("f1", "rules", show=False),
        Binding("escape", "cancel", show=False),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(10)),
    ]

    def __init__(self, source: TableSource) -> None:
        cells.install()  # measure text as the terminal draws it, before anything is laid out
        super().__init__()
        self.title = t("tui.title")
        self.source = source
        self.selected = 0
        self.hand: list[str] = []  # the seat's hand, sorted as shown
        self.mode: str | None = None  # "wild_color" or "catch": the next key finishes a choice
        self.uno_armed = False
        self.notice: Text | None = None  # an error or a message, shown until the next change
        self._my_decision = False  # whether the seat had a decision to make at the last redraw
        self.notice_rule: str | None = None  # the rule the notice named: ? opens the rules there
        self.rtl = current_language() in RIGHT_TO_LEFT
        if self.rtl:
            self.add_class("rtl")  # every screen's texts, the rules' and the quit question's too

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="status")
            yield Static(id="players")
            yield Static(id="table")
            yield RichLog(id="log", wrap=True, min_width=20)
            yield Static(id="prompt")
            yield Static(id="hand")
            yield Static(id="keys")

    async def on_mount(self) -> None:
        self.query_one(RichLog).can_focus = False
        self.set_interval(1, self._tick_deadline)
        await self.source.start(self.on_table_change)

    def on_resize(self) -> None:
        """Lines are packed for the terminal's width: pack them again when it changes."""
        self.call_after_refresh(self.redraw)

    def _tick_deadline(self) -> None:
        if self.source.deadline is not None and self.view:
            self.query_one("#status", Static).update(self._status_text())

    async def on_unmount(self) -> None:
        await self.source.stop()

    # ------------------------------------------------------------------ model -> screen
    @property
    def view(self) -> dict:
        return self.source.view or {}

    @property
    def names(self) -> list[str]:
        return self.view.get("players", [])

    def on_table_change(self, events: list[dict], notice: str | None = None) -> None:
        log = self.query_one(RichLog)
        me = self.source.seat
        for event in events:
            try:
                line = describe_event(event, self.names, viewer=me)
            except (KeyError, TypeError, IndexError):  # an event a newer server knows and we do not
                line = None
            if line:
                self._log(log, Text(line, style="bold" if event["type"] in _LOUD else ""))
            if event["type"] == "round_end":  # the summary stays in the log; keys keep working
                self._log(log, self._summary_table(event))
        if notice:
            self._log(log, Text(notice, style="bold cyan"))
        self.notice, self.notice_rule = None, None
        self.mode = None if self.mode == "catch" else self.mode
        self.redraw()

    def _log(self, log: RichLog, entry: Text | Table) -> None:
        """A log entry; to the right in a right-to-left language (the log is no Static: CSS does not reach it)."""
        if not self.rtl:
            log.write(entry)
        elif isinstance(entry, Text):
            entry.justify = "right"
            log.write(entry, expand=True)  # drawn the log's whole width, so the right is the log's right edge
        else:
            log.write(Align.right(entry), expand=True)

    def redraw(self) -> None:
        view = self.view
        if not view:
            self._draw_waiting()
            return
        me = self.source.seat
        hand = sort_hand(view["hands"][me])
        hand_changed = hand != self.hand
        if hand_changed:  # keep the cursor on the same card (the nearest copy of it) as the hand changes
            chosen = self.hand[self.selected] if self.selected < len(self.hand) else None
            copies = [i for i, code in enumerate(hand) if code == chosen]
            self.hand = hand
            if copies:
                self.selected = min(copies, key=lambda i: abs(i - self.selected))
        playable = {FACE_CODE[a.card] for a in self.source.legal if a.verb in (PLAY, JUMP)}
        deciding = view["to_act"] == me and view["awaiting"] == AWAIT_PLAY
        if view.get("drawn") and view["to_act"] == me:
            self.selected = self.hand.index(view["drawn"])
        elif deciding and (not self._my_decision or hand_changed) and playable:
            self.selected = self._nearest_playable(playable)  # the turn starts on a card that can be played
        self._my_decision = deciding
        self.selected = min(self.selected, max(len(self.hand) - 1, 0))
        if not self._can_say_uno_with_play():
            self.uno_armed = False
        if self.mode == "wild_color" and not self._plays_of(WILD_DRAW_FOUR):
            self.mode = None
        self.query_one("#status", Static).update(self._status_text())
        self.query_one("#players", Static).update(self._players_text())
        self.query_one("#table", Static).update(self._table_text())
        self.query_one("#prompt", Static).update(self.notice or self._prompt_text())
        width = max(self.size.width - 1, CELL)
        self.query_one("#hand", Static).update(hand_rows(self.hand, playable, self.selected, width))
        self.query_one("#keys", Static).update(self._keys_text())

    def _nearest_playable(self, playable: set[str]) -> int:
        """The playable card nearest the cursor (the cursor's own card when it is playable)."""
        spots = [i for i, code in enumerate(self.hand) if code in playable]
        return min(spots, key=lambda i: (abs(i - self.selected), i))

    @property
    def _width(self) -> int:
        return max(self.size.width - 1, 20)  # the last column stays free: some terminals wrap there

    def _draw_waiting(self) -> None:
        """Before the first deal (a server's lobby): what the source says, and the start key."""
        note = self.source.status_note
        self.query_one("#status", Static).update(Text(self.title, style="bold"))
        self.query_one("#players", Static).update(Text(note or ""))
        prompt = t("tui.prompt.lobby", level=t(f"web.level.{LOBBY_BOT}")) if note else ""  # the level in words
        self.query_one("#prompt", Static).update(self.notice or Text(prompt))
        keys = [("s", t("tui.key.bots")), ("n", t("tui.key.start"))] if note else []
        keys += [("?", t("tui.key.rules")), ("q", t("tui.key.quit"))]
        self.query_one("#keys", Static).update(key_line(keys, self._width))

    def _turn_text(self) -> str:
        view = self.view
        who = self.names[view["to_act"]] if view["to_act"] is not None else ""
        return t(f"core.awaiting.{view['awaiting']}", name=who)

    def _status_text(self) -> Text:
        view = self.view
        direction = t("core.direction.left" if view["direction"] == 1 else "core.direction.right")
        arrow = "↻" if view["direction"] == 1 else "↺"
        out = Text(t("tui.status", round=view["round"], target=self.source.target_score,
                     arrow=arrow, direction=direction, turn=self._turn_text()), style="bold")
        if self.source.deadline is not None:
            left = max(0, round(self.source.deadline - time.time()))
            out.append(" · " + t("tui.deadline", seconds=left), style="bold red" if left <= 5 else "bold")
        return out

    def _players_text(self) -> Text:
        """One line per seat; two seats a line when more than five play, so 80x24 holds ten."""
        view, me, names = self.view, self.source.seat, self.names
        columns = 2 if len(names) > 5 else 1
        sizes = [view["hands"][seat] if seat != me else len(view["hands"][seat]) for seat in range(len(names))]
        cards = [t("tui.cards", count=size) for size in sizes]
        points = [t("tui.points", count=score) for score in view["scores"]]
        labels = [name + (" " + t("tui.you") if seat == me else "") for seat, name in enumerate(names)]
        # Widths in terminal cells (Indic vowel signs take cells), so the columns line up as drawn.
        cards_width, points_width = max(map(cell_len, cards)), max(map(cell_len, points))
        marks = [self._uno_mark(seat, sizes[seat]) for seat in range(len(names))]
        uno_width = max((mark.cell_len + 1 for mark in marks if mark), default=0)  # room only while one shows
        column_width = (self._width - 2 * (columns - 1)) // columns
        room = column_width - 3 - cards_width - 1 - points_width - 1 - uno_width
        name_width = max(6, min(max(map(cell_len, labels)), room))
        out = Text()
        for seat in range(len(names)):
            turn = seat == view["to_act"]
            cell = Text(("▶" if turn else " ") + f"{seat} " + fit(labels[seat], name_width) + " ",
                        style="bold" if turn else "")
            cell.append(" " * (cards_width - cell_len(cards[seat])) + cards[seat] + " ")
            cell.append(" " * (points_width - cell_len(points[seat])) + points[seat])
            if marks[seat]:
                cell.append(" ")
                cell.append_text(marks[seat])
            if seat:
                out.append("\n" if seat % columns == 0 else "  ")
            if columns == 2 and seat % 2 == 0:
                cell.pad_right(column_width - cell.cell_len)
            out.append_text(cell)
        return out

    def _uno_mark(self, seat: int, size: int) -> Text | None:
        """UNO! beside a seat that said it with one card left; "no UNO!" while it can be caught."""
        view = self.view
        if size == 1 and view["uno_said"][seat]:
            return Text(t("tui.uno_said"), style="bold green")
        if size == 1 and view.get("uno_window") == seat:
            return Text(t("tui.uno_missing"), style="bold red")
        return None

    def _table_text(self) -> Text:
        view = self.view
        out = Text(t("tui.top") + " ")
        if view["top"]:
            out.append_text(card(view["top"]))
        color = view["color"]
        if color:
            out.append("  " + t("tui.active_color", shape=shape(color), color=t(f"core.color.{color}")))
        out.append("  " + t("tui.stock", count=view["stock"]))
        if view.get("pending"):
            out.append("  " + t("tui.pending", count=view["pending"]), style="bold red")
        return out

    def _prompt_text(self) -> Text:
        view, me, legal = self.view, self.source.seat, self.source.legal
        verbs = {a.verb for a in legal}
        others = [s for s in range(len(self.names)) if s != me]
        if self.mode == "wild_color":
            return Text(t("tui.prompt.wild_color"), style="bold")
        if self.mode == "catch":
            return Text(t("tui.prompt.catch", seats=_seat_list(self._catchable(), self.names)), style="bold")
        lines = []
        if view["awaiting"] == GAME_OVER:
            lines.append(t("tui.prompt.game_over"))
        elif view["awaiting"] == ROUND_OVER:
            lines.append(t("tui.prompt.round_over"))
        elif view["to_act"] == me:
            aw = view["awaiting"]
            drawn = view.get("drawn")
            fields = {"card": card_name(drawn) if drawn else "", "count": view.get("pending") or 0,
                      "seats": _seat_list(others, self.names)}
            lines.append(t(f"tui.prompt.{aw}", **fields))
        else:
            lines.append(t("tui.prompt.wait", turn=self._turn_text()))
            if JUMP in verbs:
                lines[-1] += " " + t("tui.prompt.jump")
        if UNO in verbs:
            lines.append(t("tui.prompt.say_uno"))
        if CATCH in verbs:
            lines.append(t("tui.prompt.can_catch", names=_seat_list(self._catchable(), self.names)))
        if self.uno_armed:
            lines.append(t("tui.prompt.uno_armed"))
        if self.source.away:
            lines.insert(0, t("tui.prompt.away"))
        return Text("\n".join(lines[:2]), style="bold" if view["to_act"] == me else "")

    def _keys_text(self) -> Text:
        return key_line(self._keys(), self._width)

    def _keys(self) -> list[tuple[str, str]]:
        if self.mode == "wild_color":
            return [("r y g b", t("tui.key.color")), ("Esc", t("tui.key.back")), ("q", t("tui.key.quit"))]
        verbs = {a.verb for a in self.source.legal}
        awaiting = self.view["awaiting"]
        keys = []
        if COLOR in verbs:
            keys.append(("r y g b", t("tui.key.color")))
        elif self.mode == "catch" or TARGET in verbs or SWAP in verbs:
            keys.append(("0-9", t("tui.key.seat")))
        elif self.hand:
            keys.append(("←→ 1-9", t("tui.key.card")))
        if verbs & {PLAY, JUMP}:
            keys.append(("Enter", t("tui.key.jump" if JUMP in verbs else "tui.key.play")))
        for verb, key, label in ((DRAW, "d", "draw"), (PASS, "p", "keep"), (CHALLENGE, "c", "challenge"),
                                 (ACCEPT, "a", "accept"), (CATCH, "k", "catch")):
            if verb in verbs:
                keys.append((key, t(f"tui.key.{label}")))
        if UNO in verbs or self._can_say_uno_with_play():
            keys.append(("u", t("tui.key.uno")))
        if self.source.away:
            keys.append(("h", t("tui.key.come_back")))
        if awaiting == ROUND_OVER and not self.source.deals_itself:
            keys.append(("n", t("tui.key.next_round")))
        elif awaiting == GAME_OVER and self.source.deals_itself:
            keys.append(("n", t("tui.key.rematch")))
        keys += [("?", t("tui.key.rules")), ("q", t("tui.key.quit"))]
        return keys

    def _summary_table(self, event: dict) -> Table:
        """A round's points and the scores; the final result when the round ended the game."""
        view, names = self.view, self.names
        winner, scores = event["winner"], event.get("scores") or view["scores"]
        final = scores[winner] >= self.source.target_score
        title = t("tui.summary.round", round=view["round"], name=names[winner], count=event["points"])
        if final:
            title += "\n" + t("tui.summary.final", name=names[winner], count=scores[winner])
        caption = "final_keys" if final else "keys"
        if self.source.deals_itself:
            caption = "server_" + caption
        table = Table(title=title, title_style="bold", caption=t(f"tui.summary.{caption}"), min_width=60,
                      box=box.SIMPLE_HEAD)
        # Right to left, the columns are mirrored: the name on the right, the score on the left.
        order = slice(None, None, -1 if self.rtl else 1)
        columns = [("player", "right" if self.rtl else "left"), ("left", "right"), ("score", "right")]
        for key, justify in columns[order]:
            table.add_column(t(f"tui.summary.{key}"), justify=justify)
        hand_points = event.get("hand_points") or [0] * len(names)
        for seat, name in enumerate(names):
            cells = [name, str(hand_points[seat]), str(scores[seat])]
            table.add_row(*cells[order], style="bold green" if seat == winner else "")
        return table

    # ------------------------------------------------------------------ choices
    def _plays_of(self, face: int) -> list[Action]:
        return [a for a in self.source.legal if a.verb in (PLAY, JUMP) and a.card == face]

    def _can_say_uno_with_play(self) -> bool:
        return any(a.uno for a in self.source.legal if a.verb in (PLAY, JUMP))

    def _catchable(self) -> list[int]:
        return [a.target for a in self.source.legal if a.verb == CATCH]

    def _say(self, message: str, rule: str | None = None) -> None:
        """A message in the player's words; the rule it comes from, if any, on a help line below."""
        self.notice, self.notice_rule = Text(message, style="bold red"), rule
        if rule:
            self.notice.append("\n" + t("tui.rule_help", rule=rule), style="dim")
        self.query_one("#prompt", Static).update(self.notice)

    def _refuse(self, err: Exception) -> None:
        self._say(*refusal_text(err, self.names))

    def _not_now(self, shortcut: str, label: str) -> None:
        """A key whose decision is not open: say so, and what the table waits for."""
        now = self._turn_text() if self.view else ""
        self._say(t("tui.error.not_now", shortcut=shortcut, action=t(f"tui.key.{label}"), now=now))

    async def submit(self, action: Action) -> None:
        try:
            await self.source.act(action)
        except (TableError, UnoKartError) as err:
            self._refuse(err)

    def _action(self, verb: str, **fields) -> Action:
        return Action(self.source.seat, verb, **fields)

    def action_move(self, step: int) -> None:
        if self.hand:
            self.selected = (self.selected + step) % len(self.hand)
            self.redraw()

    async def action_digit(self, digit: int) -> None:
        view, legal = self.view, self.source.legal
        seat_choice = self.mode == "catch" or any(a.verb in (TARGET, SWAP) for a in legal)
        if not seat_choice:
            index = 9 if digit == 0 else digit - 1
            if index >= len(self.hand):
                self._say(t("tui.error.no_such_card", number=digit, count=len(self.hand)))
                return
            self.selected = index
            self.redraw()
            return
        if self.mode == "catch":
            if digit not in self._catchable():
                self._say(t("tui.error.not_catchable", seat=digit, seats=_seat_list(self._catchable(), self.names)),
                          rule="R8.3")
                return
            self.mode = None
            await self.submit(self._action(CATCH, target=digit))
            return
        verb = TARGET if view["awaiting"] == AWAIT_TARGET else SWAP
        await self.submit(self._action(verb, target=digit))

    async def action_play(self) -> None:
        view = self.view
        if view.get("awaiting") in (ROUND_OVER, GAME_OVER):
            await self.action_next_round()
            return
        if not view or not self.hand:
            return
        face = parse_card(self.hand[self.selected])
        plays = self._plays_of(face)
        verb = JUMP if plays and plays[0].verb == JUMP else PLAY
        uno = self.uno_armed and any(a.uno for a in plays)
        if face == WILD_DRAW_FOUR and plays:
            self.mode = "wild_color"
            self.redraw()
            return
        await self.submit(self._action(verb, card=face, uno=uno))

    async def action_color(self, letter: str) -> None:
        color = COLORS.index(letter)
        if self.mode == "wild_color":
            self.mode = None
            plays = self._plays_of(WILD_DRAW_FOUR)  # not empty: the mode ends when they do
            uno = self.uno_armed and any(a.uno for a in plays)
            await self.submit(self._action(plays[0].verb, card=WILD_DRAW_FOUR, color=color, uno=uno))
            return
        if not self._open(COLOR, letter.lower(), "color"):
            return
        await self.submit(self._action(COLOR, color=color))

    def _open(self, verb: str, shortcut: str, label: str) -> bool:
        """Whether the decision ``verb`` is open to this seat now; if not, the player reads why."""
        if any(a.verb == verb for a in self.source.legal):
            return True
        self._not_now(shortcut, label)
        return False

    async def _answer(self, verb: str, shortcut: str, label: str) -> None:
        """A decision with no card, seat or colour to choose: sent when the game offers it now."""
        if self._open(verb, shortcut, label):
            await self.submit(self._action(verb))

    async def action_draw(self) -> None:
        await self._answer(DRAW, "d", "draw")

    async def action_keep(self) -> None:
        await self._answer(PASS, "p", "keep")

    async def action_challenge(self) -> None:
        await self._answer(CHALLENGE, "c", "challenge")

    async def action_accept(self) -> None:
        await self._answer(ACCEPT, "a", "accept")

    async def action_uno(self) -> None:
        if any(a.verb == UNO for a in self.source.legal) or not self._can_say_uno_with_play():
            await self.submit(self._action(UNO))  # a refusal explains R8.3
            return
        self.uno_armed = not self.uno_armed
        self.redraw()

    async def action_catch(self) -> None:
        seats = self._catchable()
        if not seats:
            self._say(t("tui.error.nobody_to_catch"), rule="R8.3")
        elif len(seats) == 1:
            await self.submit(self._action(CATCH, target=seats[0]))
        else:
            self.mode = "catch"
            self.redraw()

    def action_cancel(self) -> None:
        self.mode = None
        self.redraw()

    async def action_fill_seats(self) -> None:
        try:
            await self.source.fill_empty_seats(LOBBY_BOT)
        except (TableError, UnoKartError) as err:
            self._refuse(err)

    async def action_come_back(self) -> None:
        try:
            await self.source.come_back()
        except (TableError, UnoKartError) as err:
            self._refuse(err)

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(key_line, self.notice_rule))

    def action_ask_quit(self) -> None:
        """Mid-game, q asks first (a second q leaves); before a deal or after the game it leaves at once."""
        if self.view.get("awaiting") in (None, GAME_OVER) or isinstance(self.screen, QuitScreen):
            self.exit()
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.exit()

        self.push_screen(QuitScreen(), answered)

    async def action_next_round(self) -> None:
        """The next round (local play), or whatever the server's table allows: start, rematch."""
        awaiting = self.view.get("awaiting")
        if not self.source.deals_itself and awaiting == GAME_OVER:
            self._say(t("tui.error.game_over"), rule="R11.2")
        elif not self.source.deals_itself and awaiting != ROUND_OVER:
            self._say(t("tui.error.round_not_over"), rule="R9.1")
        else:
            try:
                await self.source.next_round()
            except (TableError, UnoKartError) as err:
                self._refuse(err)

