"""Replays: the frames the core computes for a finished game, and the viewer stepping through them in Chromium."""

from __future__ import annotations

import random
import re

import pytest

from helpers.web import finished_game
from unokart import Game
from unokart.rules import RecordError
from unokart.i18n import t
from unokart.replay.frames import replay_round


def played_record(seed: int, rounds: int = 2) -> dict:
    game = Game.new(3, seed=seed, options={"hand_size": 4})
    rng = random.Random(seed)
    while True:
        if game.awaiting == "round_over":
            if game.round == rounds:
                return game.record()
            game.next_round()
        elif game.awaiting == "game_over":
            return game.record()
        else:
            game.apply(rng.choice(game.legal_actions()))


def test_a_round_has_one_frame_per_action_plus_the_deal_and_ends_where_the_record_ends():
    record = played_record(3)
    whole = Game.from_record(record)
    last_round = len(record["rounds"])
    for number, rnd in enumerate(record["rounds"], 1):
        replay = replay_round(record, number)
        assert replay["round"] == number and replay["rounds"] == last_round
        assert len(replay["frames"]) == len(rnd["actions"]) + 1
        assert [f["action"] for f in replay["frames"]] == [None] + rnd["actions"]
        assert replay["frames"][0]["round"] == number
    final = replay_round(record, last_round)["frames"][-1]
    assert final["hands"] == whole.state()["hands"] and final["scores"] == whole.state()["scores"]


def test_every_frame_holds_all_112_cards_and_private_events_name_their_seats():
    record = played_record(8)
    replay = replay_round(record, 1)
    for frame in replay["frames"]:
        assert sum(len(hand) for hand in frame["hands"]) + frame["stock"] + frame["discard"] == 112
        for event in frame["events"]:
            if event["type"] in ("drew", "deal", "hand", "reveal"):
                assert event["to"], f"a private event without its seats: {event}"
    assert any(e["to"] is None for f in replay["frames"] for e in f["events"]), "public events are for everyone"


def test_a_broken_record_or_a_missing_round_is_refused_with_a_reason():
    record = played_record(5, rounds=1)
    with pytest.raises(ValueError, match="rounds 1 to 1"):
        replay_round(record, 2)
    broken = {**record, "rounds": [{**record["rounds"][0], "actions": ["0: fly"]}]}
    with pytest.raises(RecordError, match="fly"):
        replay_round(broken, 1)


def test_the_viewer_steps_through_a_finished_game_from_any_seat_and_by_link(server, new_page, shots):
    game = finished_game(server)
    actions = game["record"]["rounds"][0]["actions"]
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.click("#games-list a")  # the lobby lists the finished game
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step") == f"move 0 of {len(actions)}"
    assert page.locator(".opp .open-hand").count() == 3, "all cards open: every hand is shown"

    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay-action", "data-action") == actions[2]
    # The move is told in words, its card by name (the notation stays in the tooltip).
    said = page.inner_text("#replay-action")
    card = actions[2].split()[2] if actions[2].split()[1] in ("play", "jump") else None
    # Not the notation ("2: target 1"): a sentence may hold a colon of its own ("The Green Shell hits Bot 1 (easy): ...").
    assert actions[2] not in said and not re.match(r"\d+: ", said) and (card is None or card not in said.split()), said
    assert page.inner_text("#replay-step") == f"move 3 of {len(actions)}"
    page.screenshot(path=shots / "replay_all_open.png")

    page.select_option("#replay-seat", "0")
    assert page.locator("#hand .card").count() > 0, "seat 0's own hand"
    assert page.locator(".opp .card:not(.card-back)").count() == 0, "seat 0 does not see the others' cards"
    page.click("#replay-last")
    assert page.get_attribute("#replay-action", "data-action") == actions[-1]
    assert "seat=0" in page.url and f"step={len(actions)}" in page.url

    shared = new_page("phone")
    shared.goto(page.url)
    shared.wait_for_selector("#replay-step")
    assert shared.get_attribute("#replay-action", "data-action") == actions[-1]
    assert shared.locator("#hand .card").count() == page.locator("#hand .card").count()
    shared.screenshot(path=shots / "replay_phone.png")


def test_the_viewer_tells_a_game_in_sindhi_without_a_card_code_or_an_english_word(server, browser, shots):
    game = finished_game(server)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("localStorage.setItem('unokart.lang', 'sd')")
    page = context.new_page()
    try:
        page.goto(f"{server.url}/#replay/{game['id']}?seat=all&round=1&step=0")
        page.wait_for_selector("#replay-step")
        page.click("#replay-last")
        page.wait_for_function("() => document.querySelectorAll('#replay-log p').length > 3")
        told = page.inner_text("#replay-log") + "\n" + page.inner_text("#replay-action") + "\n" + page.inner_text(".opponents")
        # Cards by name beside their chips; bots by their level ("Bot 0 (easy)" was recorded in English).
        assert [word for word in re.findall(r"[A-Za-z]{2,}", told) if word != "UNO"] == [], told
        assert page.locator("#replay-log .card-ref .card-chip").count() > 0
        page.screenshot(path=shots / "replay_sindhi_phone.png")
    finally:
        context.close()


def test_a_recorded_bot_is_named_by_its_level_in_the_readers_words_whatever_its_budget_or_policy(server, new_page):
    """A finished game's record keeps the server's English "Bot 5 (skilled:trained)"; the finished-games list and the
    viewer show it as the live table does: numbered from 1, its level in the reader's language."""
    page = new_page("desktop")
    page.goto(server.url + "/")
    page.evaluate("() => { localStorage.setItem('unokart.lang', 'ta'); }")
    page.reload()
    page.wait_for_selector("#create-form")
    shown = page.evaluate("""async () => (await import('/static/js/i18n.js'))
        .recordedNames(['Bot 5 (skilled:trained)', 'Bot 0 (strong:150ms)', 'Bot 2 (good)', 'Bot 1 (skilled:x y)', 'Ann'])""")
    named = lambda n, level: t("web.bot_name", "ta", n=n, level=t(f"web.level.{level}", "ta"))  # noqa: E731
    assert shown == [named(6, "policy"), named(1, "ismcts"), named(3, "heuristic"), "Bot 1 (skilled:x y)", "Ann"]
