"""A change's history entry is one frozen record (issue 25 point 4): ``Here.history(details)``
gives a ``HistoryRecord``, which records itself in the change (``.record(tx)``); no keyword
arguments spread into ``tx.record(**…)``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from bot.interaction.here import HistoryRecord
from bot.storage.details import SceneNewDetails, TimeDetails

ROOT = Path(__file__).resolve().parents[2]


def test_the_record_is_frozen_and_named_by_its_details() -> None:
    record = HistoryRecord(
        guild_id=1, interaction_id=2, actor_id=3, details=TimeDetails(minutes=30)
    )
    assert record.command == TimeDetails(minutes=30).command == "time"
    assert HistoryRecord(1, 2, 3, SceneNewDetails()).command == "scene new"
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.actor_id = 4  # type: ignore[misc]


def test_no_history_entry_is_spread_into_record() -> None:
    spread = re.compile(r"\.record\(\s*\*\*")
    written = [
        f"{path.relative_to(ROOT)}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if spread.search(path.read_text(encoding="utf-8"))
    ]
    assert written == []
