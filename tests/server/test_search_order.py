"""The order in which waiting searches are served, on a clock the test moves (no search runs, no time passes).

Each table's searches cost what its level measures; the scheduler picks the next search as the server does
(``_least_served``) and each search is charged as the server charges it (``measured``), the clock moved by
the search's time. Twenty tables of ismcts:59 bots ask all the time beside one table of the default ismcts.
"""

from __future__ import annotations

from unokart.server.bots import Accounts, BotScheduler, Job, Request, level_cost


def _job(table: str, level: str, version: int) -> Job:
    return Job(table, version, [Request(0, level, None, [])], 0)


def _serve(levels: dict[str, str], took: dict[str, float], measured: dict[str, float], searches: int) -> list[str]:
    """The tables served, in order, for ``searches`` searches, every table asking again as soon as it is served."""
    now = [0.0]
    scheduler = BotScheduler(lambda job, result: None, delay=0.0)
    scheduler.accounts = Accounts(clock=lambda: now[0])
    scheduler._took.update(measured)
    versions = dict.fromkeys(levels, 0)
    scheduler._waiting = [(order, _job(table, level, 0)) for order, (table, level) in enumerate(levels.items())]
    served = []
    for order in range(len(levels), len(levels) + searches):
        job = scheduler._least_served()
        assert job is not None
        served.append(job.table)
        now[0] += took[job.level]
        scheduler.measured(job, took[job.level])
        versions[job.table] += 1
        scheduler._waiting.append((order, _job(job.table, levels[job.table], versions[job.table])))
    return served


def test_the_default_searchs_nominal_cost_is_its_default_budget():
    assert level_cost("ismcts") == level_cost("ismcts:400") == 400.0


def test_a_level_never_measured_is_served_and_measured_not_starved_by_its_nominal_cost():
    """ismcts:400's nominal cost (a millisecond a playout, 0.4 s) is far over the crowd's accounts (a search of
    ismcts:59 measures 20 ms; the 400 playouts take 5): ordered by it, that table was never served, so never
    measured (105 searches, none its own)."""
    levels = {f"crowd{n}": "ismcts:59" for n in range(20)} | {"default": "ismcts:400"}
    turns = [index for index, table in enumerate(_serve(levels, {"ismcts:59": 0.02, "ismcts:400": 0.005},
                                                         {"ismcts:59": 0.02}, 5 * 21)) if table == "default"]
    assert turns and turns[0] < 21, turns  # served within one round of the others
    assert len(turns) >= 5 and all(later - earlier <= 21 for earlier, later in zip(turns, turns[1:])), turns


def test_once_measured_a_level_that_costs_more_waits_for_its_share():
    """Measured at its real cost, a table of costly searches is not served first again and again: after its
    first search, the cheap tables go while their accounts stay under its account plus its cost."""
    levels = {"light": "ismcts:10", "heavy": "ismcts:500"}
    served = _serve(levels, {"ismcts:10": 0.004, "ismcts:500": 0.2}, {}, 30)
    assert served[:2] == ["light", "heavy"]
    assert served.count("heavy") == 1, served
