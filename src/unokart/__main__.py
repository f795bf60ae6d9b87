"""``python -m unokart``: the same command as ``unokart``."""

from .cli import main

main()
