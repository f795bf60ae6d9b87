"""House rules (R12): named options fixed when a table is created."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .errors import SetupError

_BOOLEAN = ("stacking", "draw_until_playable", "force_play", "jump_in", "seven_zero")


@dataclass(frozen=True)
class Options:
    target_score: int = 500
    hand_size: int = 7
    stacking: bool = False
    draw_until_playable: bool = False
    force_play: bool = False
    jump_in: bool = False
    seven_zero: bool = False

    @classmethod
    def from_dict(cls, data: "dict | Options | None") -> "Options":
        if data is None:
            return cls()
        if isinstance(data, Options):
            return data
        if not isinstance(data, dict):
            raise SetupError(f"options must be an object, not {type(data).__name__}",
                             "core.setup.options_not_object", {"type": type(data).__name__})
        known = {f.name for f in fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise SetupError(f"unknown option {name!r} (known: {', '.join(sorted(known))})",
                                 "core.setup.unknown_option", {"name": str(name)[:40], "known": ", ".join(sorted(known))})
            if name in _BOOLEAN:
                if not isinstance(value, bool):
                    raise SetupError(f"option {name!r} must be true or false, not {value!r}",
                                     "core.setup.not_boolean", {"name": name, "value": repr(value)[:40]})
            elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SetupError(f"option {name!r} must be a positive whole number, not {value!r}",
                                 "core.setup.not_positive", {"name": name, "value": repr(value)[:40]})
        return cls(**data)

    def to_dict(self) -> dict:
        """Only what differs from the defaults, as a record writes it."""
        default = Options()
        return {k: v for k, v in asdict(self).items() if getattr(default, k) != v}
