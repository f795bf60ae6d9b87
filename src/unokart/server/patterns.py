"""Regular expressions written for two readers: Python's ``re`` (the server, and schemathesis drawing values) and
JSON Schema's ECMA-262 (any client reading the OpenAPI document). Only what both read alike is written: classes
of ranges, groups, alternatives and counted repeats; no named groups, lookarounds or property escapes (whose
Unicode version would be the reader's, not the server's)."""

from __future__ import annotations

# str.strip()'s characters: a level and a name may be sent with them around it.
SPACES = "".join(char for char in map(chr, range(0x3001)) if char.isspace())


def any_case(word: str) -> str:
    """``word`` with each ASCII letter in either case."""
    return "".join(f"[{c.upper()}{c}]" if c.isascii() and c.isalpha() else c for c in word)


def number_pattern(low: int, high: int) -> str:
    """The numbers ``low`` to ``high`` written in ASCII digits without leading zeros, as a regular expression."""
    parts = []
    for digits in range(len(str(low)), len(str(high)) + 1):
        first, last = max(low, 10 ** (digits - 1) if digits > 1 else 0), min(high, 10**digits - 1)
        if first <= last:
            parts += _same_length(str(first), str(last))
    return "|".join(parts)


def _same_length(low: str, high: str) -> list[str]:
    """Expressions for the numbers from ``low`` to ``high``, written with as many digits as each other."""
    if len(low) == 1:
        return [low if low == high else f"[{low}-{high}]"]
    if low[0] == high[0]:
        inner = _same_length(low[1:], high[1:])
        return [low[0] + (inner[0] if len(inner) == 1 else f"(?:{'|'.join(inner)})")]
    rest = len(low) - 1
    parts, first, last = [], int(low[0]), int(high[0])
    if low[1:] != "0" * rest:  # the numbers that start as low does
        parts += _same_length(low, low[0] + "9" * rest)
        first += 1
    tail = [] if high[1:] == "9" * rest else _same_length(high[0] + "0" * rest, high)
    last -= bool(tail)
    if first <= last:
        parts.append(f"{first if first == last else f'[{first}-{last}]'}[0-9]" + (f"{{{rest}}}" if rest > 1 else ""))
    return parts + tail


def char_class(chars: "str | set[str]") -> str:
    """The inside of a character class holding exactly ``chars``, as ranges: \\uXXXX for the basic plane (Python
    and ECMA-262 read it alike), the character itself beyond (neither escape reads the same in both)."""
    codes = sorted(set(map(ord, chars)))
    spans: list[list[int]] = []
    for code in codes:
        if spans and spans[-1][1] == code - 1 and (code <= 0xFFFF) == (spans[-1][0] <= 0xFFFF):
            spans[-1][1] = code
        else:
            spans.append([code, code])

    def one(code: int) -> str:
        return f"\\u{code:04X}" if code <= 0xFFFF else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in spans)
