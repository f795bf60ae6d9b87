"""The records' face: ``unokart replay`` and ``unokart watch`` (cli.py), and the command lines' shared
readers of records and house rules. Kept out of the rules core, which does no I/O."""
