"""Run the terminal app on a scripted table, for tests that look at it in a real terminal (tmux).

    python tests/tui/tmux_app.py challenge    # Luigi opens with a Wild Draw Four: Ann must challenge or accept
    python tests/tui/tmux_app.py challenge NAME   # the same, seat 0 under another name
    python tests/tui/tmux_app.py refusal      # Luigi plays G3; Ann holds R5 R7 and nothing matches
    python tests/tui/tmux_app.py last_cards   # Ann goes out in two plays and wins the game: the summary
    python tests/tui/tmux_app.py wild         # Ann's Wild Draw Four (the colour picker), then a round's summary
    python tests/tui/tmux_app.py items        # Ann's Wild Item Boxes: Mushroom, Bob-omb, Green Shell, Banana Peel
"""

from __future__ import annotations

import sys

from helpers.tui import scripted_table  # the tests folder is on PYTHONPATH: helpers.tui.Tmux puts it there

from unokart.tui.app import PlayApp

SCENARIOS = {
    # Luigi: W+4 G3 (plays the wild first, red); Ann: R5 R7; first card G9. Luigi held green: guilty.
    "challenge": lambda name="Ann": scripted_table(["W+4", "R5", "G3", "R7", "G9"], dealer=0, hand_size=2,
                                                   names=(name, "Luigi")),
    # Luigi: G2 G3 (plays G3); Ann: R5 R7, neither matches: Enter is refused by R4.1.
    "refusal": lambda: scripted_table(["G2", "R5", "G3", "R7", "G9", "G5"], dealer=0, hand_size=2),
    # Ann: W+4 G2, Luigi: B3 B4, first card R1: Ann plays the wild (its colour picker), Luigi challenges and
    # loses (draws 6), Ann goes out with G2: the round's summary, then round 2.
    "wild": lambda: scripted_table(["W+4", "B3", "G2", "B4", "R1"], dealer=1, hand_size=2),
    # Ann: four Wild Item Boxes and B7, Luigi: G2 G3 G4 G6 G8, first card R1. The boxes turn R9 (Mushroom:
    # again), W+4 (Bob-omb: Ann draws B1 B5 and picks a colour), then after Luigi's B2, G9 (Green Shell: a
    # target), and after Luigi's G8, Y9 (Banana Peel: Luigi draws 2).
    "items": lambda: scripted_table(["WIB", "G2", "WIB", "G3", "WIB", "G4", "WIB", "G6", "B7", "G8", "R1",
                                     "R9", "W+4", "B1", "B5", "B2", "G9", "B3", "Y9", "B4", "B6"],
                                    dealer=1, hand_size=5),
    # Ann: R5 and R6, Luigi: G2 G3, first card R1, target 1: Ann plays twice and wins the game (a summary).
    "last_cards": lambda: scripted_table(["R5", "G2", "R6", "G3", "R1", "G4"], dealer=1, hand_size=2,
                                         options={"target_score": 1}),
}

if __name__ == "__main__":
    table = SCENARIOS[sys.argv[1]](*sys.argv[2:])
    table.delay = 0.2
    PlayApp(table).run()
