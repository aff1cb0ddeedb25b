"""``/history`` lines: when, who, what, and each character's Health before → after.

One line per entry, in words in the server's language, short enough that a page of them fits
an embed description (4096 characters): ``#12 · <t:1700000000:R> · <@42> · Ana recibe 4 de
daño (1d6+1) · Ana: 5 → 1``; a First Aid names medic and patient, and every character
touched comes with its Health before → after. No option name or stored key is ever shown.
Undone entries are struck through and marked "(undone)"; an undo says which entry (and what
it did) it reverted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.i18n import Language, text
from bot.render.common import count_text, duration_text, safe

if TYPE_CHECKING:
    from bot.storage.models import HistoryCharacter, HistoryEntry

__all__ = ["MAX_LINE_LENGTH", "entry_words", "history_lines", "mention"]

#: Longest line; 15 lines and their newlines stay under an embed description's 4096.
MAX_LINE_LENGTH = 270
_REASON_LENGTH = 60
_SEPARATOR = " · "


def mention(user_id: int) -> str:
    """``<@id>``: shown as the member's name; it pings nobody inside an embed."""
    return f"<@{user_id}>"


def _when(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:R>"


def _name(value: object) -> str:
    return safe(str(value))


def _subject(entry: HistoryEntry) -> str:
    """The character a one-character entry is about (its first character touched)."""
    return _name(entry.characters[0].name) if entry.characters else "?"


def _patient(entry: HistoryEntry, medic: str) -> str:
    """The patient of a First Aid: the character touched that is not the medic."""
    others = [change.name for change in entry.characters if change.name != medic]
    return _name(others[0] if others else medic)


def _correction(details: Mapping[str, Any], language: Language) -> str:
    """What a ``/character set`` corrected, in words: ``Salud 5 · consciente``."""
    parts: list[str] = []
    for key in ("health", "max_health", "first_aid", "max_first_aid"):
        if isinstance(details.get(key), int) and not isinstance(details.get(key), bool):
            parts.append(text(language, f"render.history.set.{key}", value=details[key]))
    if isinstance(details.get("conscious"), bool):
        state = "conscious" if details["conscious"] else "unconscious"
        parts.append(text(language, f"render.history.set.{state}"))
    for key in ("stability", "max_stability"):
        if isinstance(details.get(key), int) and not isinstance(details.get(key), bool):
            parts.append(text(language, f"render.history.set.{key}", value=details[key]))
    if isinstance(details.get("mental_illness"), bool):
        mark = "mental_illness" if details["mental_illness"] else "cured"
        parts.append(text(language, f"render.history.set.{mark}"))
    if isinstance(details.get("gender"), str) and details["gender"] in {
        "feminine",
        "masculine",
        "none",
    }:
        gender = text(language, f"render.value.gender.{details['gender']}")
        parts.append(text(language, "render.history.set.gender", value=gender))
    return " · ".join(parts)


def entry_words(entry: HistoryEntry, language: Language) -> str:
    """What the entry did, in the words of the table (never an option name or a key)."""
    details, command = entry.details, entry.command.lstrip("/")
    key = f"render.history.what.{command.replace(' ', '_')}"
    name = _subject(entry)
    if command == "hurt":
        amount = str(details.get("amount", ""))
        targets = details.get("targets")
        if isinstance(targets, list) and targets:  # one blow, several targets
            hit = ", ".join(
                f"{_name(target.get('name', '?'))} ({target.get('dealt', '?')})"
                for target in targets
                if isinstance(target, dict)
            )
            words = text(language, f"{key}.several", targets=hit)
            dealt: object = None
        else:
            dealt = details.get("dealt", amount or "?")
            words = text(language, key, name=name, dealt=dealt)
        if amount and amount != str(dealt):
            words += f" ({safe(amount)})"
        if details.get("reason"):
            words += f" — {safe(str(details['reason']))[:_REASON_LENGTH]}"
        return words
    if command == "conscious":
        outcome = "success" if details.get("success") else "failure"
        return text(language, f"{key}.{outcome}", name=name, roll=details.get("roll", ""))
    if command == "firstaid":
        medic = str(details.get("medic", ""))
        points = details.get("spent", details.get("points", 0))
        form = "stabilized" if details.get("stabilized") else "healed"
        return text(
            language,
            f"{key}.{form}",
            medic=_name(medic),
            patient=_patient(entry, medic),
            points=count_text(language, "point", int(points) if isinstance(points, int) else 0),
            restored=details.get("restored", 0),
        )
    if command == "rest":
        days = details.get("days")
        form = "hospital" if details.get("hospital") else "home"
        shown = count_text(language, "day", int(days)) if isinstance(days, int) else "?"
        return text(language, f"{key}.{form}", name=name, days=shown)
    if command == "time":
        minutes = details.get("minutes")
        shown = duration_text(language, int(minutes)) if isinstance(minutes, int) else "?"
        return text(language, key, duration=shown)
    if command == "character rename":
        return text(
            language,
            key,
            old=_name(details.get("from", "?")),
            new=_name(details.get("to", name)),
        )
    if command == "character set":
        return text(language, key, name=name, changes=_correction(details, language))
    if command in {"character create", "character delete", "scene new"}:
        return text(language, key, name=name)
    if command == "refresh":
        form = "one" if details.get("character") else "all"
        return text(language, f"{key}.{form}", name=name)
    if command.startswith("stability "):
        return _stability_words(entry, language)
    if command == "spend" and isinstance(details.get("composure"), str):
        outcome = "kept" if details.get("kept") else "faltered"
        return text(
            language,
            f"render.history.what.spend_composure.{outcome}",
            name=name,
            ability=_name(details.get("ability", "?")),
            points=details.get("points", ""),
            roll=details.get("composure", ""),
        )
    if command in {"ability set", "ability remove", "spend", "check"}:
        return text(
            language,
            key,
            name=name,
            ability=_name(details.get("ability", "?")),
            points=details.get("points", ""),
            rating=details.get("rating", ""),
            roll=details.get("roll", ""),
        )
    return safe(f"/{command}")


def _stability_words(entry: HistoryEntry, language: Language) -> str:
    """A Stability command in words: the test called (its loss, Difficulty and who), the
    roll with its outcome, the treatment."""
    details, command = entry.details, entry.command
    key = f"render.history.what.{command.replace(' ', '_')}"
    if command == "stability test":
        names = details.get("characters")
        shown = ", ".join(_name(n) for n in names) if isinstance(names, list) else _subject(entry)
        words = text(
            language,
            key,
            names=shown,
            loss=details.get("loss", "?"),
            difficulty=details.get("difficulty", "?"),
        )
        if details.get("reason"):
            words += f" — {safe(str(details['reason']))[:_REASON_LENGTH]}"
        return words
    if command == "stability roll":
        outcome = "success" if details.get("success") else "failure"
        return text(
            language,
            f"{key}.{outcome}",
            name=_subject(entry),
            roll=details.get("roll", ""),
            lost=details.get("lost", 0),
        )
    if command == "stability treat":
        medic = str(details.get("medic", ""))
        form = "lucid" if details.get("lucidity") else "restored"
        points = details.get("spent", details.get("points", 0))
        return text(
            language,
            f"{key}.{form}",
            medic=_name(medic),
            patient=_patient(entry, medic),
            points=count_text(language, "point", int(points) if isinstance(points, int) else 0),
            restored=details.get("restored", 0),
        )
    return safe(f"/{command}")


def _health(value: int | None, maximum: int | None, language: Language, key: str) -> str:
    if value is None:
        return text(language, key)
    return str(value) if maximum is None else f"{value}/{maximum}"


def _stability_change(change: HistoryCharacter, language: Language) -> str | None:
    """``Estabilidad 5 → 1`` when the entry moved the character's Stability pool or rating
    (``5/8 → -7/7`` when the rating moved too); None otherwise, and for a character without
    Stability either side."""
    before = None if change.before is None else change.before.stability
    after = None if change.after is None else change.after.stability
    if before is None or after is None:
        return None
    if (before.pool, before.rating) == (after.pool, after.rating):
        return None
    if before.rating != after.rating:
        value = f"{before.pool}/{before.rating} → {after.pool}/{after.rating}"
    else:
        value = f"{before.pool} → {after.pool}"
    return text(language, "render.history.stability", value=value)


def _character(change: HistoryCharacter, language: Language) -> str:
    """``Ana: 5 → 1``; the maximum too when it changed (``5/9 → 5/10``); creations and
    deletions in words; Stability when it moved (``Ana: Estabilidad 5 → 1``, after Health
    only when Health moved too)."""
    mind = _stability_change(change, language)
    if mind is not None and change.health_before == change.health_after:
        return f"{safe(change.name)}: {mind}"
    show_max = change.max_before != change.max_after and None not in (
        change.max_before,
        change.max_after,
    )
    before = _health(
        change.health_before,
        change.max_before if show_max else None,
        language,
        "render.history.created",
    )
    after = _health(
        change.health_after,
        change.max_after if show_max else None,
        language,
        "render.history.deleted",
    )
    said = f"{safe(change.name)}: {before} → {after}"
    return said if mind is None else f"{said} · {mind}"


def _line(
    entry: HistoryEntry,
    language: Language,
    name_of: Callable[[int], str],
    commands: Mapping[int, str],
) -> str:
    head = [f"#{entry.id}", _when(entry.created_at), name_of(entry.actor_id)]
    if entry.undo_of is not None:
        what = text(language, "render.history.undo_of", entry=entry.undo_of)
        reverted = commands.get(entry.undo_of)
        if reverted:
            what += f" ({reverted})"
    else:
        what = entry_words(entry, language)
    undone = f" *{text(language, 'render.history.undone')}*" if entry.undone else ""
    line = _SEPARATOR.join([*head, what])
    # Characters, as many as fit; the rest counted.
    room = MAX_LINE_LENGTH - len(line) - len(undone) - 4  # strikethrough markers
    changes = [_character(change, language) for change in entry.characters]
    for index, change in enumerate(changes):
        rest = len(changes) - index - 1
        tail = f"{_SEPARATOR}+{rest}" if rest else ""
        piece = f"{_SEPARATOR}{change}"
        if len(piece) + len(tail) > room:
            line += f"{_SEPARATOR}+{len(changes) - index}"
            break
        line += piece
        room -= len(piece)
    if entry.undone:
        return f"~~{line}~~{undone}"
    return line


def history_lines(
    entries: Sequence[HistoryEntry],
    language: Language,
    *,
    name_of: Callable[[int], str] = mention,
) -> list[str]:
    """One line per entry, in the order given (the caller sorts; newest first reads best).

    ``name_of`` turns the actor's user id into text (default: a ``<@id>`` mention). An undo
    names the command it reverted when that entry is among ``entries``. An empty list when
    there are no entries; ``text(language, "render.history.empty")`` says so in words.
    """
    commands = {entry.id: entry_words(entry, language) for entry in entries if not entry.is_undo}
    return [_line(entry, language, name_of, commands) for entry in entries]
