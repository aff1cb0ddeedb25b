"""What an ``/undo`` would revert, in words (COMMANDS.md ``/undo``), and the public reply once
it did.

The GM sees it privately before confirming, and the public reply after it says the same:
every character the change touched, with only the values that change back, each once, in
words — Health, First Aid, flags, hospital, the scene's counters, Stability and its marks,
every ability, the name, the player and the gender — or that it returns to play (a deletion
undone) or goes (a creation undone). A value that stays (a medic's Health) is not listed, a
flag is a phrase (``the Consciousness roll is due again``), a stored value never shows (no
``yes → no``, no ``feminine``). The title says the entry's number in its server;
``UndoButton`` (``bot.features.history.undo_confirm``) carries its id, so a confirmation
reverts exactly what was previewed.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, plural, text
from bot.render.change import should_announce
from bot.render.change_reply import Touched, change_reply, clip_lines
from bot.render.common import duration_text, mention, safe
from bot.render.cut import cut
from bot.render.limits import CONTENT_LIMIT, DESCRIPTION_LIMIT, TITLE_LIMIT, UNDO_PREVIEW_COLOUR
from bot.render.stability import due_difficulty
from bot.render.visibility import EVERYONE, Sight, Viewer, shows_numbers
from bot.render.words import happened_words
from bot.storage.details import CharacterMoveDetails
from bot.storage.interface import HistoryCharacter, HistoryEntry, UndoResult
from bot.storage.models import StoredCharacter
from rules.abilities import Ability
from rules.character import CharacterHealth
from rules.outcome import Outcome
from rules.stability import CharacterStability, StabilityOutcome

__all__ = ["preview_embed", "reversal_line", "reversal_lines", "undo_reply"]


def _pool_move(now: int, now_rating: int, back: int, back_rating: int) -> str:
    """``3 → 4 / 4`` (the rating said once when it stays), ``5 / 9 → 5 / 10`` when it moves."""
    if now_rating == back_rating:
        return f"{now} → {back} / {back_rating}"
    return f"{now} / {now_rating} → {back} / {back_rating}"


def _shown(health: CharacterHealth) -> str:
    return f"{health.health} / {health.max_health}"


def _hospital(language: Language, now: CharacterHealth, back: CharacterHealth) -> str:
    """The stay in hospital as the undo brings it back, in words: out of it, back in it with
    the days left, or the days left again."""
    if back.hospital is None:
        return text(language, "undo.hospital.out")
    days = back.hospital.days_left
    if now.hospital is None:
        return plural(language, "undo.hospital.back", days)
    return plural(language, "undo.hospital.days", days)


def _ability(ability: Ability) -> str:
    return f"{ability.pool}/{ability.rating}"


def _ability_changes(
    now: Sequence[Ability], back: Sequence[Ability], language: Language
) -> list[str]:
    """``Theology 2/3 → 3/3``, ``Theology removed``, ``Theology back, 2/3`` for each ability
    that differs (names compared ignoring case, as the abilities are)."""
    before = {a.name.casefold(): a for a in back}
    after = {a.name.casefold(): a for a in now}
    parts = []
    for key in sorted(before.keys() | after.keys()):
        old, new = after.get(key), before.get(key)
        if old == new:
            continue
        if new is None:
            assert old is not None
            parts.append(text(language, "undo.ability.removed", name=safe(old.name)))
        elif old is None:
            parts.append(
                text(language, "undo.ability.back", name=safe(new.name), value=_ability(new))
            )
        else:
            value = f"{_ability(old)} → {_ability(new)}"
            if old.kind != new.kind:
                value += f" ({text(language, f'abilities.kind.{new.kind.value}')})"
            parts.append(f"{safe(new.name)} {value}")
    return parts


def _stability(stability: CharacterStability) -> str:
    return f"{stability.pool} / {stability.rating}"


def _stability_changes(
    now: CharacterStability | None,
    back: CharacterStability | None,
    language: Language,
    *,
    pool: bool = True,
    health: CharacterHealth | None = None,
) -> list[str]:
    """Every Stability value the undo changes back, in words (RULES.md M13: an undone roll
    makes its test due again): ``Estabilidad 1 / 7 → 5 / 8``, the mental illness, lucidity,
    the scene's losses, the test due; Stability that comes back or goes. Nothing for a
    character without Stability either side. ``pool``: the pool and the test due too (the
    public reply's Stability field shows them instead). ``health``: as the undo brings it
    back, for the Difficulty the test due will be rolled against."""
    if now == back:
        return []
    if back is None:
        return [text(language, "undo.stability.removed")]
    if now is None:
        return [text(language, "undo.stability.back", value=_stability(back))]
    parts = []
    if pool and (now.pool, now.rating) != (back.pool, back.rating):
        parts.append(text(language, "undo.stability", now=_stability(now), back=_stability(back)))
    for key, old, new in (
        ("undo.flag.mental_illness", now.mental_illness, back.mental_illness),
        ("undo.flag.lucid", now.lucid, back.lucid),
    ):
        if old != new:
            parts.append(text(language, f"{key}.{'on' if new else 'off'}"))
    for key, old_count, new_count in (
        ("undo.stability_lost", now.scene_lost, back.scene_lost),
        ("undo.stability_worst", now.scene_worst_loss, back.scene_worst_loss),
    ):
        if old_count != new_count:  # as the undo brings it back, a zero in words
            parts.append(
                text(language, key, back=new_count) if new_count else text(language, f"{key}.none")
            )
    if now.due_test != back.due_test:
        due = back.due_test
        if due is None:
            parts.append(text(language, "undo.flag.test_due.off"))
        elif pool:  # else the reply calls the player and its Stability field says it
            difficulty = due_difficulty(due, back, health)
            parts.append(
                text(language, "undo.flag.test_due.on", loss=due.loss, difficulty=difficulty)
            )
    return parts


def _scene_values(a: CharacterHealth, b: CharacterHealth, language: Language) -> list[str]:
    """The scene's counters as the undo brings them back (a zero in words, never ``0``)."""
    parts = []
    if a.first_aid_received != b.first_aid_received:
        if b.first_aid_received:
            parts.append(text(language, "undo.first_aid_received", back=b.first_aid_received))
        else:
            parts.append(text(language, "undo.first_aid_received.none"))
    if a.bleed_minutes != b.bleed_minutes:
        if b.bleed_minutes:
            duration = duration_text(language, b.bleed_minutes)
            parts.append(text(language, "undo.bleed_minutes", back=duration))
        else:
            parts.append(text(language, "undo.bleed_minutes.none"))
    if a.scene_start_health != b.scene_start_health:
        parts.append(text(language, "undo.scene_start", back=b.scene_start_health))
    return parts


def _value_changes(
    now: StoredCharacter, back: StoredCharacter, language: Language, *, health: bool = True
) -> list[str]:
    """Every value of one character that the undo changes back, each once, in words; none
    that stays. ``health``: its Health, Stability pool and test due too (the public reply's
    embeds show them instead)."""
    a, b = now.health, back.health
    parts: list[str] = []
    if health and (a.health, a.max_health) != (b.health, b.max_health):
        move = _pool_move(a.health, a.max_health, b.health, b.max_health)
        parts.append(text(language, "undo.health", move=move))
    if (a.first_aid_pool, a.first_aid_rating) != (b.first_aid_pool, b.first_aid_rating):
        move = _pool_move(
            a.first_aid_pool, a.first_aid_rating, b.first_aid_pool, b.first_aid_rating
        )
        parts.append(text(language, "undo.first_aid", move=move))
    flags = (
        ("undo.flag.conscious", a.conscious, b.conscious),
        ("undo.flag.roll_pending", a.roll_pending, b.roll_pending),
        ("undo.flag.stabilized", a.stabilized, b.stabilized),
        ("undo.flag.full_recovery_due", a.full_recovery_due, b.full_recovery_due),
    )
    for key, old, new in flags:
        if old != new:  # a flag in words: what the undo brings back (COMMANDS.md, Replies)
            parts.append(text(language, f"{key}.{'on' if new else 'off'}"))
    if a.hospital != b.hospital:
        parts.append(_hospital(language, a, b))
    parts += _scene_values(a, b, language)
    parts += _stability_changes(now.stability, back.stability, language, pool=health, health=b)
    parts += _ability_changes(now.abilities, back.abilities, language)
    if now.name != back.name:
        parts.append(text(language, "undo.name", back=safe(back.name)))
    if now.owner_id != back.owner_id:
        parts.append(text(language, "undo.owner", back=mention(back.owner_id)))
    if now.gender != back.gender:
        if back.gender is None:
            parts.append(text(language, "undo.gender.none"))
        else:
            gender = text(language, f"render.value.gender.{back.gender.value}")
            parts.append(text(language, "undo.gender", back=gender))
    return parts


def reversal_line(
    change: HistoryCharacter,
    language: Language,
    *,
    health: bool = True,
    viewer: Viewer = EVERYONE,
) -> str | None:
    """One character of the change, as the undo turns it back: ``**Ana**: Health 3 → 9 / 9 ·
    First Aid 0 → 2 / 4``, ``**Ana** returns to play: Health 9 / 9`` (a deletion undone) or
    ``**Ana**'s creation is undone …``; None when nothing of it would be said (with
    ``health`` False, a character whose Health alone changes back, or a private character's
    return in words: its embed says it)."""
    now, back = change.after, change.before
    if back is None:
        name = safe(now.name if now is not None else change.name)
        return text(language, "undo.line.removed", name=name)
    if not shows_numbers(back, viewer) or (now is not None and not shows_numbers(now, viewer)):
        # Private numbers: what comes back is said in words, never its values.
        if now is None:
            return text(language, "undo.line.recreated", name=safe(back.name))
        if not health:
            return None  # the character's embed says what comes back, in the same words
        said = happened_words(now, back, language)
        if not said:
            return None if not health else text(language, "numbers.undo.back", name=safe(back.name))
        return " ".join(said)
    if now is None:
        line = text(language, "undo.line.recreated", name=safe(back.name))
        if health:
            line += ": " + text(language, "undo.health.is", health=_shown(back.health))
        return line
    parts = _value_changes(now, back, language, health=health)
    if not parts:
        return None
    return text(language, "undo.line.changed", name=safe(now.name), values=" · ".join(parts))


def reversal_lines(
    entry: HistoryEntry,
    language: Language,
    *,
    health: bool = True,
    viewer: Viewer = EVERYONE,
) -> list[str]:
    """Every character the entry touched that has something to say, in the order stored
    (by id); a move between tables undone says where the character plays again."""
    details = entry.details
    if isinstance(details, CharacterMoveDetails):
        table = details.from_name or text(language, "table.main_name")
        return [text(language, "undo.line.moved", name=safe(details.name), table=safe(table))]
    lines = (
        reversal_line(change, language, health=health, viewer=viewer) for change in entry.characters
    )
    return [line for line in lines if line is not None]


#: Who reads the preview: the GM who asked for ``/undo`` (it is theirs alone).
GM = Viewer(Sight.GM)


def _command(entry: HistoryEntry) -> str:
    return entry.command if entry.command.startswith("/") else f"/{entry.command}"


def preview_embed(
    entry: HistoryEntry, language: Language, *, changed: bool = False
) -> discord.Embed:
    """The private question: which change, by whom and when, and every value it reverts.
    ``changed``: another change came in since the last preview (this one replaces it)."""
    title = text(
        language,
        "undo.preview.title",
        command=_command(entry),
        entry=entry.number,
    )
    intro = text(
        language,
        "undo.preview.intro",
        author=mention(entry.actor_id),
        when=discord.utils.format_dt(entry.created_at, "R"),
    )
    if changed:
        intro = text(language, "undo.preview.changed") + "\n" + intro
    lines = "\n".join(reversal_lines(entry, language, viewer=GM))  # a GM's eyes only
    description = cut(f"{intro}\n{lines}", DESCRIPTION_LIMIT)
    embed = discord.Embed(
        title=title[:TITLE_LIMIT], description=description, colour=UNDO_PREVIEW_COLOUR
    )
    embed.set_footer(text=text(language, "undo.preview.footer"))
    return embed


def undo_reply(
    result: UndoResult, language: Language
) -> tuple[str, list[discord.Embed], list[list[discord.Embed]], bool]:
    """Content, embeds, further messages' embeds and whether to announce: which change was
    reverted (its number in the server, who made it, when), each character's status embed
    with its Health (or, when only its mind moved, its Stability) now → restored, and the
    other values that change back in words."""
    reverted = result.reverted
    header = text(
        language,
        "history.undo.done",
        actor=mention(result.undo_entry.actor_id),
        entry=reverted.number,
        author=mention(reverted.actor_id),
        when=discord.utils.format_dt(reverted.created_at, "R"),
    )
    restored = {character.id: character for character in result.restored}
    touched: list[Touched] = []
    for change in reverted.characters:
        now = change.after  # as the reverted change left it: what the undo starts from
        back = restored.get(change.character_id)
        # Every value that changes back, said once: Health in each character's embed (as
        # every change shows it), the others in the content, in the words of the preview
        # (``bot.render.undo``) that the GM saw before confirming.
        if back is None:
            touched.append(Touched(now, None, None))
        elif now is None:
            outcome = Outcome(before=back.health, after=back.health, events=())
            touched.append(Touched(None, back, outcome))
        else:
            outcome = Outcome(before=now.health, after=back.health, events=())
            mind = None
            if now.stability is not None and back.stability is not None:
                mind = StabilityOutcome(before=now.stability, after=back.stability, events=())
            touched.append(Touched(now, back, outcome, stability=mind))
    lines = reversal_lines(reverted, language, health=False)
    if lines:
        header += "\n" + clip_lines(lines, language, CONTENT_LIMIT - len(header) - 1)
    content, embeds, more = change_reply(header, touched, language)
    # Announced like any change: a death undone, or a character knocked out again.
    announce = should_announce(
        item.outcome for item in touched if item.outcome is not None and item.before is not None
    )
    return content, embeds, more, announce
