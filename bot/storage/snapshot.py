"""Row <-> value <-> JSON snapshot conversions, in one place so that nothing is forgotten.

A snapshot is the whole stored character (row + abilities) as a JSON object; history keeps
one before and one after each change, and ``/undo`` writes a ``before`` back verbatim.

The ``after`` is stored as what changed from the ``before`` (``dump_after``/``load_after``):
a ``/time`` over thousands of characters changes a few numbers of each, and whole copies of
everything else doubled its history entry (issue 13).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from bot.storage.models import StoredCharacter, numbers_from_value
from rules.abilities import Ability, AbilityKind
from rules.character import CharacterHealth, Gender, Hospital
from rules.stability import CharacterStability, DueTest

__all__ = [
    "HEALTH_COLUMNS",
    "NO_STABILITY_ROW",
    "SNAPSHOT_VERSION",
    "STABILITY_COLUMNS",
    "RowLike",
    "Snapshot",
    "ability_from_row",
    "ability_to_row",
    "character_from_snapshot",
    "dump_after",
    "dump_json",
    "gender_from_value",
    "health_from_row",
    "health_to_row",
    "load_after",
    "load_snapshot",
    "make_snapshot",
    "stability_from_row",
    "stability_of_snapshot",
    "stability_to_row",
]

SNAPSHOT_VERSION = 1


class RowLike(Protocol):
    """A ``sqlite3.Row`` or a dict: anything indexed by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


#: A snapshot as parsed JSON (see ``make_snapshot``).
Snapshot = dict[str, Any]

#: The ``characters`` columns that hold ``CharacterHealth`` (hospital takes two).
HEALTH_COLUMNS: tuple[str, ...] = (
    "health",
    "max_health",
    "first_aid_pool",
    "first_aid_rating",
    "scene_start_health",
    "conscious",
    "roll_pending",
    "stabilized",
    "hospital_length_days",
    "hospital_days_served",
    "lowest_health",
    "first_aid_received",
    "bleed_minutes",
    "full_recovery_due",
)


#: The ``characters`` columns that hold ``CharacterStability`` (migration 0010); a character
#: without Stability has ``stability_rating`` NULL and these values (``NO_STABILITY_ROW``).
STABILITY_COLUMNS: tuple[str, ...] = (
    "stability_pool",
    "stability_rating",
    "mental_illness",
    "lucid",
    "scene_worst_loss",
    "scene_lost",
    "due_loss",
    "due_difficulty",
)

#: The Stability columns of a character without Stability (M1).
NO_STABILITY_ROW: dict[str, int | None] = {
    "stability_pool": None,
    "stability_rating": None,
    "mental_illness": 0,
    "lucid": 0,
    "scene_worst_loss": 0,
    "scene_lost": 0,
    "due_loss": None,
    "due_difficulty": None,
}


def health_to_row(health: CharacterHealth) -> dict[str, int | None]:
    """``CharacterHealth`` as column values (booleans as 0/1)."""
    hospital = health.hospital
    return {
        "health": health.health,
        "max_health": health.max_health,
        "first_aid_pool": health.first_aid_pool,
        "first_aid_rating": health.first_aid_rating,
        "scene_start_health": health.scene_start_health,
        "conscious": int(health.conscious),
        "roll_pending": int(health.roll_pending),
        "stabilized": int(health.stabilized),
        "hospital_length_days": None if hospital is None else hospital.length_days,
        "hospital_days_served": None if hospital is None else hospital.days_served,
        "lowest_health": health.lowest_health,
        "first_aid_received": health.first_aid_received,
        "bleed_minutes": health.bleed_minutes,
        "full_recovery_due": int(health.full_recovery_due),
    }


def health_from_row(row: RowLike) -> CharacterHealth:
    """The inverse of ``health_to_row``."""
    length = row["hospital_length_days"]
    return CharacterHealth(
        health=int(row["health"]),
        max_health=int(row["max_health"]),
        first_aid_pool=int(row["first_aid_pool"]),
        first_aid_rating=int(row["first_aid_rating"]),
        scene_start_health=int(row["scene_start_health"]),
        conscious=bool(row["conscious"]),
        roll_pending=bool(row["roll_pending"]),
        stabilized=bool(row["stabilized"]),
        hospital=None
        if length is None
        else Hospital(length_days=int(length), days_served=int(row["hospital_days_served"])),
        lowest_health=None if row["lowest_health"] is None else int(row["lowest_health"]),
        first_aid_received=int(row["first_aid_received"]),
        bleed_minutes=int(row["bleed_minutes"]),
        full_recovery_due=bool(row["full_recovery_due"]),
    )


def stability_to_row(stability: CharacterStability | None) -> dict[str, int | None]:
    """``CharacterStability`` (or none) as column values (booleans as 0/1)."""
    if stability is None:
        return dict(NO_STABILITY_ROW)
    due = stability.due_test
    return {
        "stability_pool": stability.pool,
        "stability_rating": stability.rating,
        "mental_illness": int(stability.mental_illness),
        "lucid": int(stability.lucid),
        "scene_worst_loss": stability.scene_worst_loss,
        "scene_lost": stability.scene_lost,
        "due_loss": None if due is None else due.loss,
        "due_difficulty": None if due is None else due.difficulty,
    }


def stability_from_row(row: RowLike) -> CharacterStability | None:
    """The inverse of ``stability_to_row``: None when the row has no Stability rating."""
    rating = row["stability_rating"]
    if rating is None:
        return None
    loss = row["due_loss"]
    return CharacterStability(
        pool=int(row["stability_pool"]),
        rating=int(rating),
        mental_illness=bool(row["mental_illness"]),
        lucid=bool(row["lucid"]),
        scene_worst_loss=int(row["scene_worst_loss"]),
        scene_lost=int(row["scene_lost"]),
        due_test=None
        if loss is None
        else DueTest(loss=int(loss), difficulty=int(row["due_difficulty"])),
    )


def stability_of_snapshot(snapshot: Snapshot) -> dict[str, Any]:
    """The Stability columns a snapshot holds: its ``stability`` (only a character with
    Stability has one; snapshots from before migration 0010 never do), else none."""
    found = snapshot.get("stability")
    return dict(NO_STABILITY_ROW) if found is None else dict(found)


def ability_from_row(row: RowLike) -> Ability:
    return Ability(
        name=str(row["name"]),
        kind=AbilityKind(row["kind"]),
        rating=int(row["rating"]),
        pool=int(row["pool"]),
    )


def ability_to_row(ability: Ability) -> dict[str, Any]:
    return {
        "name": ability.name,
        "kind": ability.kind.value,
        "rating": ability.rating,
        "pool": ability.pool,
    }


def gender_from_value(value: object) -> Gender | None:
    """The stored gender (a column or a snapshot's ``gender``); None when not given."""
    return None if value is None else Gender(str(value))


def _optional(row: RowLike, key: str) -> Any:
    """A column that older rows and snapshots lack (``gender``: migration 0006): None then."""
    try:
        return row[key]
    except (KeyError, IndexError):
        return None


def make_snapshot(row: RowLike, abilities: list[dict[str, Any]]) -> Snapshot:
    """A snapshot from a ``characters`` row and its ability rows (already in name_key order).

    Stability is kept (as ``stability``) only for a character that has it: the snapshot of
    a character without it is what it was before Stability existed (M1: it costs nothing)."""
    snapshot: Snapshot = {
        "gender": _optional(row, "gender"),
        "v": SNAPSHOT_VERSION,
        "id": int(row["id"]),
        "guild_id": int(row["guild_id"]),
        "name": str(row["name"]),
        "owner_id": int(row["owner_id"]),
        "created_at": str(row["created_at"]),
        "health": {column: row[column] for column in HEALTH_COLUMNS},
        "abilities": abilities,
    }
    if row["stability_rating"] is not None:  # every character row has the column (0010)
        snapshot["stability"] = {column: row[column] for column in STABILITY_COLUMNS}
    numbers = _optional(row, "numbers")
    if numbers is not None:  # only private numbers are kept: a shown one's is as before
        snapshot["numbers"] = numbers
    return snapshot


def character_from_snapshot(snapshot: Snapshot) -> StoredCharacter:
    return StoredCharacter(
        id=int(snapshot["id"]),
        guild_id=int(snapshot["guild_id"]),
        name=str(snapshot["name"]),
        owner_id=int(snapshot["owner_id"]),
        health=health_from_row(snapshot["health"]),
        abilities=tuple(ability_from_row(item) for item in snapshot["abilities"]),
        gender=gender_from_value(snapshot.get("gender")),
        stability=stability_from_row(snapshot["stability"]) if "stability" in snapshot else None,
        numbers=numbers_from_value(snapshot.get("numbers")),
    )


def dump_json(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces): equal values give equal text."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def load_snapshot(text: str | None) -> Snapshot | None:
    if text is None:
        return None
    value = json.loads(text)
    if not isinstance(value, dict) or value.get("v") != SNAPSHOT_VERSION:
        raise ValueError(f"unsupported character snapshot: {text[:80]!r}")
    return value


#: The ``v`` of an ``after`` stored as its changes from ``before`` (whole snapshots have 1).
CHANGES_VERSION = "changes"


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What to set on ``before`` to get ``after`` (objects recursively, anything else
    whole); None when a key of ``before`` is gone (then the whole ``after`` is kept)."""
    if not before.keys() <= after.keys():
        return None
    found: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key, _ABSENT)
        if old == value and type(old) is type(value):
            continue
        if isinstance(old, dict) and isinstance(value, dict):
            inner = _changes(old, value)
            if inner is None:
                return None
            found[key] = {"$set": inner}
        else:
            found[key] = value
    return found


def _applied(before: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    result = dict(before)
    for key, value in changes.items():
        if isinstance(value, dict) and "$set" in value and isinstance(result.get(key), dict):
            result[key] = _applied(result[key], value["$set"])
        else:
            result[key] = value
    return result


_ABSENT = object()


def dump_after(before: Snapshot | None, after: Snapshot | None) -> str | None:
    """The ``after`` column: the changes from ``before`` when there is one, else whole."""
    if after is None:
        return None
    if before is None:
        return dump_json(after)
    changes = _changes(before, after)
    if changes is None:
        return dump_json(after)
    return dump_json({"v": CHANGES_VERSION, "set": changes})


def load_after(before: Snapshot | None, text: str | None) -> Snapshot | None:
    """The whole ``after`` snapshot from its column (changes, or whole as before issue 13)."""
    if text is None:
        return None
    value = json.loads(text)
    if isinstance(value, dict) and value.get("v") == CHANGES_VERSION:
        if before is None or not isinstance(value.get("set"), dict):
            raise ValueError(f"character changes without a before: {text[:80]!r}")
        return _applied(before, value["set"])
    return load_snapshot(text)
