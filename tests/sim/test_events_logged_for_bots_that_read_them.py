"""The simulator skips the event log only when no bot at the table reads events."""

from unokart.bots import make_bot
from unokart.sim.match import play_game


class EventReader:
    """A heuristic player that writes down, at each decision, the events its view held."""

    name = "reader"  # no ``reads_events`` attribute: a bot is assumed to read them

    def __init__(self):
        self.inner = make_bot("heuristic")
        self.seen: list[list[str]] = []

    def choose(self, view, legal_actions, rng):
        self.seen.append([event["type"] for event in view.events])
        return self.inner.choose(view, legal_actions, rng)


def test_a_bot_that_reads_events_gets_every_round_s_events_beside_random_bots():
    reader = EventReader()
    result = play_game([make_bot("random"), reader, make_bot("random")], seed=4, options={"target_score": 300})
    assert len(reader.seen) == result.decisions[1] > 30
    # Every decision sees its round's start and its own deal, and the events grow within a round.
    assert all(seen[0] == "round_start" and "deal" in seen and "first_card" in seen for seen in reader.seen)
    assert any("play" in seen and "draw" in seen for seen in reader.seen)


class CountingRandom:
    """A random player that says it reads no events, and counts the events its views held anyway."""

    name = "random"
    reads_events = False

    def __init__(self):
        self.inner = make_bot("random")
        self.events_held = 0
        self.decisions = 0

    def choose(self, view, legal_actions, rng):
        self.events_held += len(view.events)
        self.decisions += 1
        return self.inner.choose(view, legal_actions, rng)


def test_a_table_of_bots_that_read_no_events_logs_none_and_plays_the_same_game():
    counting = [CountingRandom(), CountingRandom()]
    result = play_game(counting, seed=2)
    plain = play_game([make_bot("random"), make_bot("random")], seed=2)
    assert sum(bot.decisions for bot in counting) > 1000
    assert sum(bot.events_held for bot in counting) == 0
    assert (result.winner, result.scores, result.decisions) == (plain.winner, plain.scores, plain.decisions)
    assert make_bot("random").reads_events is False
