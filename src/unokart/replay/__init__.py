"""The records' face: ``unokart replay`` and ``unokart watch`` (cli.py), the command lines' shared
readers of records and house rules, and the frames the browser's replay viewer steps through (frames.py).
Kept out of the rules core, which does no I/O."""
