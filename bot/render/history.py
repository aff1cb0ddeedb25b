"""``/history`` lines: when, who, what, and each character's Health before → after.

One line per entry, short enough that 15 of them fit an embed description (4096 characters):
``#12 · <t:1700000000:R> · <@42> · /hurt amount: 1d6+1 · Ana: 5 → 1``. Undone entries are
struck through and marked "(undone)"; an undo says which entry (and command) it reverted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.i18n import Language, text
from bot.render.common import safe

if TYPE_CHECKING:
    from bot.storage.models import HistoryCharacter, HistoryEntry

__all__ = ["MAX_LINE_LENGTH", "history_lines", "mention"]

#: Longest line; 15 lines and their newlines stay under an embed description's 4096.
MAX_LINE_LENGTH = 270
_DETAILS_LENGTH = 80
_SEPARATOR = " · "
# Details that repeat what the line already shows, or that mean nothing to a reader.
_HIDDEN_DETAILS = frozenset({"character_id", "character_ids", "medic_id", "patient_id"})


def mention(user_id: int) -> str:
    """``<@id>``: shown as the member's name; it pings nobody inside an embed."""
    return f"<@{user_id}>"


def _when(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:R>"


def _command(command: str) -> str:
    return command if command.startswith("/") else f"/{command}"


def _scalar(value: Any) -> str | None:
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, int | float | str) and str(value) != "":
        return str(value)
    return None


def _details(details: Mapping[str, Any]) -> str:
    """``key: value`` for the scalar details, cut to a short length; markdown escaped."""
    parts = []
    for key, value in details.items():
        shown = _scalar(value)
        if shown is None or key in _HIDDEN_DETAILS:
            continue
        parts.append(f"{key}: {shown}")
    joined = ", ".join(parts)
    if len(joined) > _DETAILS_LENGTH:
        joined = joined[: _DETAILS_LENGTH - 1].rstrip() + "…"
    return safe(joined)


def _health(value: int | None, maximum: int | None, language: Language, key: str) -> str:
    if value is None:
        return text(language, key)
    return str(value) if maximum is None else f"{value}/{maximum}"


def _character(change: HistoryCharacter, language: Language) -> str:
    """``Ana: 5 → 1``; the maximum too when it changed (``5/9 → 5/10``); creations and
    deletions in words."""
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
    return f"{safe(change.name)}: {before} → {after}"


def _line(
    entry: HistoryEntry,
    language: Language,
    name_of: Callable[[int], str],
    commands: Mapping[int, str],
) -> str:
    head = [f"#{entry.id}", _when(entry.created_at), name_of(entry.actor_id)]
    what = _command(entry.command)
    if entry.undo_of is not None:
        undid = text(language, "render.history.undo_of", entry=entry.undo_of)
        reverted = commands.get(entry.undo_of)
        what = f"{what} — {undid}" + (f" ({_command(reverted)})" if reverted else "")
    else:
        details = _details(entry.details)
        if details:
            what = f"{what} {details}"
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
    commands = {entry.id: entry.command for entry in entries}
    return [_line(entry, language, name_of, commands) for entry in entries]
