"""The tournament simulator: whole games between bots, seats rotated, in parallel, summed up per bot.

``match.play_game`` plays one game; ``tournament.run`` and ``tournament.summarize`` a
tournament; ``unokart simulate`` (``sim.cli``) is the command.
"""
