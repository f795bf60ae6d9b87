"""What the tests share: stacked decks, free ports, a real server and its clients, terminals, browser sizes.

Importable as ``helpers.<module>`` from every test folder (pyproject's pytest ``pythonpath``).
"""
