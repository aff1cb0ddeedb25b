"""``/history`` lines (COMMANDS.md, History): one line per entry, in words.

``#8 · <t:1700000000:R> · <@42> · Jack Malone takes 15 damage (2d6+6): -3 → -18`` — the
server's number of the entry, when (a Discord timestamp: each reader's app says it in their
language and time zone), who, and what happened with the Health it moved. A character's name
is said once: after a sentence that names the one character whose Health moved, only its
values follow; otherwise each is named (``Jack Malone -7 → -8, Amelia Ríos -6 → -7``). A
value that did not move (a medic's Health) is left out; a test says its outcome
(``2 + 1 = 3 vs 4: failed``). Undone entries are struck through and marked "(undone)"; an
undo says which entry it reverted (``Undoes #12``) and what came back.

Each command's details say their sentence by their type (``sentence_of``, one function
registered per class of ``bot.storage.details``); ``UnknownDetails`` say "A change". No
option name or stored value is ever shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import singledispatch

from bot.i18n.catalogs import Language, text
from bot.render.common import count_text, duration_text, join_words, mention, safe
from bot.render.rolls import roll_text
from bot.render.stability import stability_move
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import undo_of_words, words_entry_text
from bot.storage.details import (
    AbilityRemoveDetails,
    AbilitySetDetails,
    CharacterCreateDetails,
    CharacterDeleteDetails,
    CharacterRenameDetails,
    CharacterSetDetails,
    CheckDetails,
    ConsciousDetails,
    Details,
    FirstAidDetails,
    HurtDetails,
    RefreshDetails,
    RestDetails,
    SceneNewDetails,
    SpendDetails,
    StabilityRollDetails,
    StabilityTestDetails,
    StabilityTreatDetails,
    TimeDetails,
    UndoDetails,
)
from bot.storage.interface import HistoryCharacter, HistoryEntry

__all__ = [
    "MAX_LINE_LENGTH",
    "Sentence",
    "entry_text",
    "health_move",
    "history_lines",
    "sentence_of",
    "stability_move",
]

#: Longest line: ten of them and their newlines stay under an embed description's 4096.
MAX_LINE_LENGTH = 400
_REASON_LENGTH = 60
_SEPARATOR = " · "


def _when(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:R>"


@dataclass(frozen=True)
class Sentence:
    """What an entry did, in words.

    ``names``: the characters the words name (plain, as stored): when the one character
    whose Health moved is among them, only its values follow. ``values``: False when the
    words already said every value there is to say. ``outcome``: the words end with a
    test's outcome, so the Health follows as ``; Health -3 → -4``. ``stability``: the values
    that follow are Stability's (``Stability 8 → 4``), not Health's.
    """

    words: str
    names: frozenset[str] = frozenset()
    values: bool = True
    outcome: bool = False
    stability: bool = False


@singledispatch
def sentence_of(details: Details, entry: HistoryEntry, language: Language) -> Sentence:
    """What ``entry`` did, by the type of its details; "A change" for details no function
    is registered for."""
    return Sentence(text(language, "render.history.what.change"))


def health_move(change: HistoryCharacter) -> str | None:
    """``5 → 1``, or ``5/9 → 5/10`` when the maximum moved; None when neither moved (or the
    character was created or deleted: the sentence says so)."""
    before, after = change.before, change.after
    if before is None or after is None:
        return None
    was, now = before.health, after.health
    if was.max_health != now.max_health:
        return f"{was.health}/{was.max_health} → {now.health}/{now.max_health}"
    if was.health != now.health:
        return f"{was.health} → {now.health}"
    return None


def _subject(entry: HistoryEntry) -> str:
    """The character a one-character entry is about (its first character touched)."""
    return entry.characters[0].name if entry.characters else "?"


def _fitting(parts: Sequence[str], room: int, language: Language) -> str:
    """``parts`` joined with commas, as many as fit in ``room``, then "and 3 more"."""
    shown: list[str] = []
    used = 0
    for index, part in enumerate(parts):
        left = len(parts) - index - 1
        more = text(language, "render.history.more", count=left) if left else ""
        if shown and used + 2 + len(part) + len(more) > room:
            return ", ".join(shown) + text(
                language, "render.history.more", count=len(parts) - index
            )
        shown.append(part)
        used += len(part) + 2
    return ", ".join(shown)


def entry_text(
    entry: HistoryEntry, language: Language, room: int = MAX_LINE_LENGTH, viewer: Viewer = EVERYONE
) -> str:
    """What ``entry`` did with the Health it moved, in about ``room`` characters (the
    values are cut, counted, when more would not fit); in words when it touches a character
    whose numbers ``viewer`` may not see."""
    sides = (side for change in entry.characters for side in (change.before, change.after))
    if any(side is not None and not shows_numbers(side, viewer) for side in sides):
        return words_entry_text(entry, language, room)
    said = sentence_of(entry.details, entry, language)
    if not said.values:
        return said.words

    def move_of(change: HistoryCharacter) -> str | None:
        return stability_move(change, language) if said.stability else health_move(change)

    moves = [(change.name, move) for change in entry.characters if (move := move_of(change))]
    if not moves:
        return said.words
    if len(moves) == 1 and moves[0][0] in said.names:
        values = moves[0][1]
    else:
        room = max(room - len(said.words) - 2, 40)
        values = _fitting([f"{safe(name)} {move}" for name, move in moves], room, language)
    if said.stability:
        values = text(language, "render.history.stability", value=values)
        return f"{said.words}; {values}" if said.outcome else f"{said.words}: {values}"
    if said.outcome:
        return said.words + text(language, "render.history.health_after", values=values)
    return f"{said.words}: {values}"


# --- one sentence per command ------------------------------------------------------------------


@sentence_of.register
def _hurt(details: HurtDetails, entry: HistoryEntry, language: Language) -> Sentence:
    amount = safe(details.amount)
    reason = safe(details.reason[:_REASON_LENGTH]) if details.reason else None
    if len(details.targets) == 1:
        (target,) = details.targets
        name = target.name or _subject(entry)
        shown = [part for part in (amount, reason) if part and part != str(target.dealt)]
        words = text(language, "render.history.what.hurt", name=safe(name), dealt=target.dealt)
        if shown:
            words += f" ({', '.join(shown)})"
        return Sentence(words, frozenset({name}))
    # One blow, several targets: each with the damage it took and its Health.
    moves = {change.name: health_move(change) for change in entry.characters}
    hits = []
    for target in details.targets:
        name = target.name or "?"
        hit = text(language, "render.history.what.hurt.target", name=safe(name), dealt=target.dealt)
        move = moves.get(name)
        hits.append(f"{hit} ({move})" if move else hit)
    blow = ", ".join(part for part in (amount, reason) if part)
    words = text(language, "render.history.what.hurt.several", blow=blow)
    return Sentence(f"{words}: {join_words(language, hits)}", values=False)


def _outcome(language: Language, outcome: str) -> str:
    """A test's outcome in the history's words: passed, failed, hit, missed, kept, faltered."""
    return text(language, f"render.history.outcome.{outcome}")


@sentence_of.register
def _passed_or_failed(
    details: ConsciousDetails | StabilityRollDetails, entry: HistoryEntry, language: Language
) -> Sentence:
    """A Consciousness or a Stability roll of the entry's character: the roll and whether it
    passed; Health's values follow, or Stability's."""
    stability = isinstance(details, StabilityRollDetails)
    name = _subject(entry)
    words = text(
        language,
        f"render.history.what.{'stability_roll' if stability else 'conscious'}",
        name=safe(name),
        roll=roll_text(details.roll),
        outcome=_outcome(language, "passed" if details.success else "failed"),
    )
    return Sentence(words, frozenset({name}), outcome=True, stability=stability)


@sentence_of.register
def _check(details: CheckDetails, entry: HistoryEntry, language: Language) -> Sentence:
    name = _subject(entry)
    if details.attack:
        key, outcome = "render.history.what.attack", "hit" if details.success else "missed"
    else:
        key, outcome = "render.history.what.check", "passed" if details.success else "failed"
    words = text(
        language,
        key,
        name=safe(name),
        ability=safe(details.ability),
        roll=roll_text(details.roll),
        outcome=_outcome(language, outcome),
    )
    return Sentence(words, frozenset({name}), outcome=True)


def _patient(entry: HistoryEntry, medic: str) -> str:
    """Whom a medic treated, when the details do not say: the character touched that is not
    the medic (the medic, when they treated themselves)."""
    others = [change.name for change in entry.characters if change.name != medic]
    return others[0] if others else medic


def _treatment(
    key: str,
    details: FirstAidDetails | StabilityTreatDetails,
    patient: str,
    language: Language,
) -> str:
    """A medic's treatment of ``patient`` (First Aid, Psychoanalysis) and the points it
    spent: those asked, in the older entries that did not store what was spent."""
    spent = details.spent if details.spent is not None else details.points
    return text(
        language,
        key,
        medic=safe(details.medic),
        patient=safe(patient),
        points=count_text(language, "point", spent),
    )


@sentence_of.register
def _first_aid(details: FirstAidDetails, entry: HistoryEntry, language: Language) -> Sentence:
    patient = details.patient or _patient(entry, details.medic)
    form = "stabilized" if details.stabilized else "healed"
    words = _treatment(f"render.history.what.firstaid.{form}", details, patient, language)
    return Sentence(words, frozenset({patient}))


@sentence_of.register
def _rest(details: RestDetails, entry: HistoryEntry, language: Language) -> Sentence:
    name = _subject(entry)
    form = "hospital" if details.hospital else "home"
    days = count_text(language, "day", details.days)
    words = text(language, f"render.history.what.rest.{form}", name=safe(name), days=days)
    return Sentence(words, frozenset({name}))


@sentence_of.register
def _time(details: TimeDetails, entry: HistoryEntry, language: Language) -> Sentence:
    duration = duration_text(language, details.minutes)
    return Sentence(text(language, "render.history.what.time", duration=duration))


@sentence_of.register
def _refresh(details: RefreshDetails, entry: HistoryEntry, language: Language) -> Sentence:
    if details.character is None:
        return Sentence(text(language, "render.history.what.refresh.all"))
    name = details.character
    words = text(language, "render.history.what.refresh.one", name=safe(name))
    return Sentence(words, frozenset({name}))


@sentence_of.register
def _scene_new(details: SceneNewDetails, entry: HistoryEntry, language: Language) -> Sentence:
    return Sentence(text(language, "render.history.what.scene_new"))


@sentence_of.register
def _create(details: CharacterCreateDetails, entry: HistoryEntry, language: Language) -> Sentence:
    ratings = [text(language, "render.history.rating.health", value=details.health)]
    if details.first_aid:
        ratings.append(text(language, "render.history.rating.first_aid", value=details.first_aid))
    if details.stability is not None:
        ratings.append(text(language, "render.history.rating.stability", value=details.stability))
    words = text(
        language,
        "render.history.what.character_create",
        name=safe(details.name),
        ratings=", ".join(ratings),
    )
    return Sentence(words, values=False)


def _set_value(language: Language, field: str, value: object) -> str | None:
    """A value a correction set (``render.history.set.<field>``); None when it set none."""
    return None if value is None else text(language, f"render.history.set.{field}", value=value)


def _set_mark(language: Language, flag: bool | None, yes: str, no: str) -> str | None:
    """A yes or no a correction set (``render.history.set.<yes>`` or ``<no>``), or None."""
    return None if flag is None else text(language, f"render.history.set.{yes if flag else no}")


@sentence_of.register
def _correct(details: CharacterSetDetails, entry: HistoryEntry, language: Language) -> Sentence:
    """A GM's correction: what it set besides Health, whose values follow."""
    name = _subject(entry)
    gender = None
    if details.gender is not None:
        gender = text(language, f"render.value.gender.{details.gender}")
    said = (
        _set_value(language, "first_aid", details.first_aid),
        _set_value(language, "max_first_aid", details.max_first_aid),
        _set_mark(language, details.conscious, "conscious", "unconscious"),
        _set_value(language, "gender", gender),
        _set_value(language, "stability", details.stability),
        _set_value(language, "max_stability", details.max_stability),
        _set_mark(language, details.mental_illness, "mental_illness", "cured"),
    )
    parts = [part for part in said if part is not None]
    words = text(language, "render.history.what.character_set", name=safe(name))
    if parts:
        words += f" ({', '.join(parts)})"
    return Sentence(words, frozenset({name}))


@sentence_of.register
def _rename(details: CharacterRenameDetails, entry: HistoryEntry, language: Language) -> Sentence:
    old, new = safe(details.old), safe(details.new)
    words = text(language, "render.history.what.character_rename", old=old, new=new)
    return Sentence(words, values=False)


@sentence_of.register
def _delete(details: CharacterDeleteDetails, entry: HistoryEntry, language: Language) -> Sentence:
    words = text(language, "render.history.what.character_delete", name=safe(details.name))
    return Sentence(words, values=False)


def _about_ability(
    key: str,
    entry: HistoryEntry,
    ability: str,
    language: Language,
    *,
    composure: bool = False,
    **params: object,
) -> Sentence:
    """What the entry's character did with one of its abilities (set, removed, spent from):
    the words of ``key`` with ``params``; ``composure``: they end with a composure test, and
    the Stability it cost follows."""
    name = _subject(entry)
    words = text(language, key, name=safe(name), ability=safe(ability), **params)
    return Sentence(words, frozenset({name}), outcome=composure, stability=composure)


@sentence_of.register
def _ability_set(details: AbilitySetDetails, entry: HistoryEntry, language: Language) -> Sentence:
    key = "render.history.what.ability_set"
    return _about_ability(key, entry, details.ability, language, rating=details.rating)


@sentence_of.register
def _ability_remove(
    details: AbilityRemoveDetails, entry: HistoryEntry, language: Language
) -> Sentence:
    return _about_ability("render.history.what.ability_remove", entry, details.ability, language)


@sentence_of.register
def _spend(details: SpendDetails, entry: HistoryEntry, language: Language) -> Sentence:
    """A spend; a Shaken investigator's composure test and the Stability it cost (M8)."""
    points = count_text(language, "point", details.points)
    if details.composure is None:
        key = "render.history.what.spend"
        return _about_ability(key, entry, details.ability, language, points=points)
    return _about_ability(
        "render.history.what.spend_composure",
        entry,
        details.ability,
        language,
        composure=True,
        points=points,
        roll=roll_text(details.composure),
        outcome=_outcome(language, "kept" if details.kept else "faltered"),
    )


@sentence_of.register
def _stability_test(
    details: StabilityTestDetails, entry: HistoryEntry, language: Language
) -> Sentence:
    names = list(details.characters) or [change.name for change in entry.characters]
    words = text(
        language,
        "render.history.what.stability_test",
        names=join_words(language, [safe(name) for name in names]),
        loss=details.loss,
        difficulty=details.difficulty,
    )
    if details.reason:
        words += f" — {safe(details.reason[:_REASON_LENGTH])}"
    return Sentence(words, values=False)


@sentence_of.register
def _stability_treat(
    details: StabilityTreatDetails, entry: HistoryEntry, language: Language
) -> Sentence:
    """Psychoanalysis: the Stability it gave back follows; lucidity moves none."""
    patient = _patient(entry, details.medic)
    form = "lucid" if details.lucidity else "restored"
    words = _treatment(f"render.history.what.stability_treat.{form}", details, patient, language)
    return Sentence(words, frozenset({patient}), stability=True)


@sentence_of.register
def _undo(details: UndoDetails, entry: HistoryEntry, language: Language) -> Sentence:
    """Which entry it reverted (its number in the server) and what came back: Health moved
    back, a deleted character back in play, a created one gone."""
    words = undo_of_words(entry, language)
    parts = []
    for change in entry.characters:
        name = safe(change.name)
        if change.before is None:
            parts.append(text(language, "render.history.undo.returns", name=name))
        elif change.after is None:
            parts.append(text(language, "render.history.undo.gone", name=name))
        else:
            moved = [health_move(change)]
            if mind := stability_move(change, language):
                moved.append(text(language, "render.history.stability", value=mind))
            if said := " · ".join(move for move in moved if move):
                parts.append(f"{name} {said}")
    if not parts:
        return Sentence(words, values=False)
    room = MAX_LINE_LENGTH - 80 - len(words)
    return Sentence(f"{words}: {_fitting(parts, room, language)}", values=False)


# --- the lines ---------------------------------------------------------------------------------


def _line(entry: HistoryEntry, language: Language, name_of: Callable[[int], str], v: Viewer) -> str:
    head = _SEPARATOR.join([f"#{entry.number}", _when(entry.created_at), name_of(entry.actor_id)])
    undone = f" *{text(language, 'render.history.undone')}*" if entry.undone else ""
    room = MAX_LINE_LENGTH - len(head) - len(_SEPARATOR) - len(undone) - 4  # ~~ … ~~
    line = f"{head}{_SEPARATOR}{entry_text(entry, language, room, v)}"
    if entry.undone:
        return f"~~{line}~~{undone}"
    return line


def history_lines(
    entries: Sequence[HistoryEntry],
    language: Language,
    *,
    name_of: Callable[[int], str] = mention,
    viewer: Viewer = EVERYONE,
) -> list[str]:
    """One line per entry, in the order given (the caller sorts; newest first reads best).

    ``name_of`` turns the actor's user id into text (default: a ``<@id>`` mention). An empty
    list when there are no entries; ``text(language, "render.history.empty")`` says so.
    """
    return [_line(entry, language, name_of, viewer) for entry in entries]
