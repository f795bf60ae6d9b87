"""A policy level that cannot be loaded says why about the file itself, in the reader's language."""

from __future__ import annotations

import pytest

from unokart.bots import make_bot
from unokart.i18n import t


def refusal(level: str) -> str:
    with pytest.raises((ValueError, RuntimeError)) as refused:
        make_bot(level)
    return str(refused.value)


def test_a_folder_or_a_file_of_another_kind_is_not_blamed_on_a_missing_extra(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    for path in (tmp_path, other):
        said = refusal(f"policy:{path}")
        assert said == t("env.policy_missing", "en", path=str(path), reason=t("env.not_a_policy_file", "en")), said
        assert "extra" not in said


def test_a_missing_npz_is_said_in_the_language_not_in_the_systems_english(tmp_path, monkeypatch):
    monkeypatch.setenv("UNOKART_LANG", "kn")
    path = tmp_path / "gone.npz"
    said = refusal(f"policy:{path}")
    assert said == t("env.bad_policy_file", "kn", path=str(path), reason=t("cli.os.ENOENT", "kn")), said
    assert "Errno" not in said
