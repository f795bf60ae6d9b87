"""Screens over the table: the rules (R1 to R12 and the items, in the player's language), and "leave the game?"."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..i18n import t

ITEMS = ("mushroom", "banana", "green_shell", "lightning", "bobomb")
SECTIONS = 12  # rules.section.1 .. rules.section.12: R1 to R12


def rules_parts(lang: str | None = None) -> list[Text]:
    """The rules from the catalogue's rules domain: the title and intro, R1 to R12, then the items."""
    try:
        head = Text()  # styles go on the pieces: a Text's own style would cover all it holds
        head.append(t("rules.title", lang) + "\n", style="bold underline")
        head.append(t("rules.intro", lang) + "\n")
        parts = [head]
        for number in range(1, SECTIONS + 1):
            part = Text()
            part.append(f"\nR{number} ", style="dim")  # the id a refusal's help line names
            part.append(t(f"rules.section.{number}.title", lang) + "\n", style="bold")
            part.append(t(f"rules.section.{number}.body", lang) + "\n")
            parts.append(part)
        items = Text()
        items.append("\n" + t("rules.items.title", lang) + "\n", style="bold")
        for item in ITEMS:  # each text names its item first: "Mushroom (red): ..."
            items.append("• " + t(f"rules.item.{item}", lang) + "\n")
        parts.append(items)
    except KeyError:  # an installation without the rules domain
        return [Text(t("tui.rules.missing", lang))]
    return parts


def rules_text(lang: str | None = None) -> Text:
    return Text("").join(rules_parts(lang))


class RulesScreen(ModalScreen[None]):
    """The whole rules, scrolled with the arrows; Esc (or ? again) goes back to the table.

    Opened after a refusal, it starts at the section of the rule the refusal named (R4.1: R4).
    """

    CSS = """
    RulesScreen { background: $background; }
    #rules { height: 1fr; padding: 0 1; }
    #rules Static { height: auto; }
    #rules-keys { height: auto; background: $primary-background; }
    """
    BINDINGS = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, key_line, rule: str | None = None) -> None:
        super().__init__()
        self._key_line = key_line
        self._section = int(rule[1:].split(".")[0]) if rule and rule[1:].split(".")[0].isdigit() else None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            for number, part in enumerate(rules_parts()):  # part n is section Rn
                yield Static(part, id=f"rules-{number}")
        yield Static(id="rules-keys")

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()
        self.on_resize()
        if self._section and 1 <= self._section <= SECTIONS:
            self.call_after_refresh(self._to_section)

    def _to_section(self) -> None:
        self.query_one(f"#rules-{self._section}").scroll_visible(top=True, animate=False)

    def on_resize(self, event: events.Resize | None = None) -> None:
        keys = [("↑↓ PgUp PgDn", t("tui.key.scroll")), ("Esc", t("tui.key.close"))]
        self.query_one("#rules-keys", Static).update(self._key_line(keys, max(self.size.width - 1, 20)))

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Mid-game, q asks first: q again (or ctrl+q, ctrl+c) leaves, any other key goes back to the game."""

    CSS = """
    QuitScreen { align: center bottom; }
    #quit-box { width: 100%; height: auto; border-top: thick $warning; border-bottom: thick $warning;
                padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        yield Static(Text(t("tui.quit.confirm"), style="bold"), id="quit-box")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(event.key in ("q", "ctrl+q", "ctrl+c"))
