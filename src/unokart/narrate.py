"""Events in words, through the message catalogue (the same sentences in every face)."""

from __future__ import annotations

from .i18n import join_list, t
from .rules.cards import COLORS, FACE_COLOR, FACE_RANK, parse_card
from .rules.errors import NotationError, RecordError, UnoKartError


# Draws that the event causing them already put in words ("Banana Peel! Bob draws 2").
_TOLD_BY_CAUSE = frozenset(("banana", "green_shell", "lightning", "bobomb", "uno_penalty", "challenge_lost"))


def card_name(code: str, lang: str | None = None) -> str:
    face = parse_card(code)
    if face == 52:
        return t("core.card.wild_draw_four", lang)
    if face == 53:
        return t("core.card.wild_item_box", lang)
    color = t(f"core.color.{COLORS[FACE_COLOR[face]]}", lang)
    rank = FACE_RANK[face]
    if rank < 10:
        return t("core.card.number", lang, color=color, number=rank)
    return t(("core.card.skip", "core.card.reverse", "core.card.draw_two")[rank - 10], lang, color=color)


def cards_text(codes: list[str], lang: str | None = None) -> str:
    """Cards in words, as ``lang`` writes a list ("red 5, blue Skip and Wild Draw Four")."""
    return join_list([card_name(code, lang) for code in codes], lang) if codes else "-"


def describe_event(event: dict, names: list[str], lang: str | None = None, viewer: int | None = None) -> str | None:
    """One line for a log, as ``viewer`` reads it (a seat, or None), or None for events that say nothing to a person."""
    kind = event["type"]
    if kind == "reveal" and viewer is not None and viewer == event["seat"]:
        return t("core.event.reveal_own", lang, target=names[event["to"]])
    who = names[event["seat"]] if "seat" in event and event["seat"] is not None else ""
    target = names[event["target"]] if isinstance(event.get("target"), int) else ""
    if kind == "play":
        card = card_name(event["card"], lang)
        if event.get("color"):
            return t("core.event.play_wild", lang, name=who, card=card, color=t(f"core.color.{event['color']}", lang))
        return t("core.event.play", lang, name=who, card=card)
    if kind == "draw":
        if event["cause"] in _TOLD_BY_CAUSE:
            return None
        if event["count"] == 0:
            return t("core.event.draw_none", lang, name=who)
        return t("core.event.draw", lang, name=who, count=event["count"])
    if kind == "item":
        if event["item"] is None:
            return t("core.event.item.none", lang, name=who)
        victim = ""
        if event["item"] == "banana":
            victim = names[event["victim"]]
        return t(f"core.event.item.{event['item']}", lang, name=who, card=card_name(event["card"], lang), victim=victim)
    if kind == "challenge":
        key = "core.event.challenge_guilty" if event["guilty"] else "core.event.challenge_innocent"
        return t(key, lang, name=who, target=target)
    if kind == "color":
        return t("core.event.color", lang, name=who, color=t(f"core.color.{event['color']}", lang))
    if kind in ("first_card", "jump_in"):
        return t(f"core.event.{kind}", lang, name=who, card=card_name(event["card"], lang))
    if kind in ("drew", "reveal", "hand", "deal"):
        return t(f"core.event.{kind}", lang, name=who, cards=cards_text(event["cards"], lang))
    if kind == "round_start":
        return t("core.event.round_start", lang, round=event["round"], name=names[event["dealer"]])
    if kind in ("round_end", "game_end"):
        return t(f"core.event.{kind}", lang, name=names[event["winner"]], count=event.get("points", 0))
    key = f"core.event.{kind}"
    try:
        return t(key, lang, name=who, target=target)
    except KeyError:
        return None


# How a refusal's plain parameters become words (see rules/errors.py): by the parameter's name.
_CARD_PARAMS = frozenset(("card", "top", "drawn"))
_SEAT_PARAMS = frozenset(("seat", "to_act", "target"))


def describe_refusal(err: UnoKartError, lang: str | None = None, names: list[str] | None = None) -> str:
    """A refusal of the rules core (its catalogue key and parameters) in ``lang``, as a player reads it.

    Card codes become card names, colour letters colour words, seats player names
    (from ``names``) or "seat N". The rule id is not included: faces show it apart.
    Any error of the core may be given (IllegalAction, SetupError, RecordError with
    the refusal inside it, NotationError); one without a key falls back to its English sentence.
    """
    key = getattr(err, "key", "")
    if not key:
        return str(err)
    params = getattr(err, "params", {})
    fields: dict[str, object] = {}
    for name, value in params.items():
        if name in _CARD_PARAMS and isinstance(value, str):
            try:
                fields[name] = card_name(value, lang)
            except NotationError:  # a placeholder such as "-": shown as it is
                fields[name] = value
        elif name == "color" and isinstance(value, str) and len(value) == 1 and value in COLORS:
            fields[name] = t(f"core.color.{value}", lang)
        elif name in _SEAT_PARAMS and isinstance(value, int):
            if names is not None and 0 <= value < len(names):
                fields[name] = names[value]
            else:
                fields[name] = t("core.refusal.seat", lang, number=value)
        else:
            fields[name] = value
    cause = getattr(err, "cause", None)
    if cause is not None:  # a record's action: what was wrong with it, with its rule id
        rule = getattr(cause, "rule", "")
        reason = describe_refusal(cause, lang, names)
        fields["reason"] = f"{rule} {reason}" if rule else reason
    text = t(key, lang, **fields)
    if text and fields and any(text.startswith(str(fields[name])) for name in _CARD_PARAMS if name in fields):
        text = text[:1].upper() + text[1:]  # "red 5 does not match ...": a card's name starts the sentence
    if isinstance(err, RecordError) and isinstance(params.get("round"), int) and params["round"] > 0:
        text = t("core.record.in_round", lang, round=params["round"], message=text)
    return text
