"""``/ability set|remove``, ``/spend`` and ``/check``: the pools other than Health, so that the
Hurt and Seriously wounded penalties bite (RULES.md P1–P3, H3, H4; COMMANDS.md "Abilities").

Every rule decision is taken in ``rules.abilities``; this cog names the ability, checks who may
act, stores the result in one transaction with its history entry, and says it in words.
First Aid is kept on the character (``CharacterHealth``), not as an ability: ``/check`` tests
it through an ``Ability`` built from the character's First Aid pool and rating, and writes the
pool back.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.errors import UserFacingError
from bot.here import Here, services_of
from bot.i18n import Language, text, user_language
from bot.render import count_text, safe, status_embed, test_roll_field
from bot.sending import send_change, send_public
from bot.storage import CharacterNotFound, StoredCharacter
from bot.transformers import CharacterTransformer, check_range, find_typed_character
from rules.abilities import (
    MAX_DIFFICULTY,
    MAX_POINTS,
    MAX_RATING,
    Ability,
    AbilityKind,
    ReservedAbility,
    TestRoll,
    check_can_add,
    is_reserved_ability_name,
    make_test,
    set_ability,
    spend_ability,
)
from rules.ability_catalog import KNOWN_ABILITIES, KnownAbility, find_known, normalize, suggest
from rules.names import MAX_NAME_LENGTH, InvalidName, clean_name, name_key

if TYPE_CHECKING:
    from bot.app import SaludBot
    from bot.storage import Reader

log = logging.getLogger(__name__)

Character = app_commands.Transform[StoredCharacter, CharacterTransformer]

#: Discord's limit on autocomplete choices, and on a choice's name and value.
MAX_CHOICES = 25
CHOICE_LENGTH = 100

KIND_CHOICES = [
    app_commands.Choice(name=_("General", key="cmd.ability.kind.general"), value="general"),
    app_commands.Choice(
        name=_("Investigative", key="cmd.ability.kind.investigative"), value="investigative"
    ),
]

_FIRST_AID: KnownAbility | None = find_known("First Aid")


# --- names ---------------------------------------------------------------------------------


def ability_name(typed: str) -> str:
    """The ability's name cleaned like a character's (COMMANDS.md Names), or a refusal that
    speaks of the ability."""
    try:
        return clean_name(typed, MAX_NAME_LENGTH)
    except InvalidName as error:
        reason = error.params.get("reason", "empty")
        raise UserFacingError(
            f"abilities.error.name.{reason}", max_length=MAX_NAME_LENGTH
        ) from error


def kind_label(kind: AbilityKind, language: Language) -> str:
    """ "general" / "investigative" ("general" / "de investigación")."""
    return text(language, f"abilities.kind.{kind.value}")


def is_first_aid(name: str) -> bool:
    """Whether ``name`` means First Aid (either language, loosely): ``/check`` tests its pool."""
    return _FIRST_AID is not None and find_known(name) is _FIRST_AID


def first_aid_name(language: Language) -> str:
    """First Aid as the status embed names it ("First Aid" / "Primeros Auxilios")."""
    return text(language, "render.status.first_aid")


def first_aid_ability(character: StoredCharacter, language: Language) -> Ability:
    """The character's First Aid as a general ability, for a test (P1: a general ability)."""
    health = character.health
    return Ability(
        name=first_aid_name(language),
        kind=AbilityKind.GENERAL,
        rating=health.first_aid_rating,
        pool=health.first_aid_pool,
    )


def refuse_reserved(name: str) -> None:
    """Health and First Aid are the character's own values, not abilities: say where they
    are handled."""
    if is_reserved_ability_name(name):
        raise ReservedAbility(name=safe(name))


def find_ability(character: StoredCharacter, name: str) -> Ability:
    """The character's ability called ``name`` (ignoring case), else a refusal that says what
    to do: Health and First Aid are no abilities; a missing one a GM may add (rating 0 for an
    untrained test)."""
    found = character.ability(name)
    if found is not None:
        return found
    refuse_reserved(name)
    raise UserFacingError(
        "abilities.error.missing", ability=safe(name), character=safe(character.name)
    )


async def reply_with_status(
    interaction: discord.Interaction[Any], here: Here, saved: StoredCharacter, content: str
) -> None:
    """The public reply to a change of a character's abilities: what changed, in words, and
    its status embed (no state changes: nothing to announce)."""
    await send_change(
        interaction,
        [status_embed(saved, here.public_language)],
        announce=False,
        here=here,
        content=content,
    )


async def fresh(tx: Reader, here: Here, character: StoredCharacter) -> StoredCharacter:
    """The character as stored now (the option was read before the transaction began)."""
    current = await tx.get_character(here.guild_id, character.id)
    if current is None:
        raise CharacterNotFound(here.guild_id, character.id)
    return current


# --- autocomplete --------------------------------------------------------------------------


def _own_choice(ability: Ability, language: Language) -> app_commands.Choice[str]:
    label = (
        f"{ability.name} · {ability.pool}/{ability.rating} · {kind_label(ability.kind, language)}"
    )
    return app_commands.Choice(name=label[:CHOICE_LENGTH], value=ability.name[:CHOICE_LENGTH])


def ability_choices(
    character: StoredCharacter | None,
    typed: str,
    language: Language,
    *,
    testable_only: bool = False,
    own_only: bool = False,
) -> list[app_commands.Choice[str]]:
    """The character's own abilities containing ``typed`` first (those starting with it
    before), then the usual Trail of Cthulhu abilities in ``language`` with their kind.

    ``testable_only`` (``/check``): general abilities only, First Aid among the character's
    own. ``own_only`` (``/ability remove``): no catalog. At most 25.
    """
    needle = normalize(typed)
    own: list[Ability] = []
    if character is not None:
        own = list(character.abilities)
        if testable_only:
            own = [ability for ability in own if ability.kind is AbilityKind.GENERAL]
            own.append(first_aid_ability(character, language))
    matching = [ability for ability in own if needle in normalize(ability.name)]
    matching.sort(key=lambda a: (not normalize(a.name).startswith(needle), name_key(a.name)))
    choices = [_own_choice(ability, language) for ability in matching]
    if own_only:
        return choices[:MAX_CHOICES]
    held = {find_known(ability.name) for ability in own} - {None}
    taken = {choice.value.casefold() for choice in choices}
    for known in suggest(typed, language.value, limit=len(KNOWN_ABILITIES)):
        if len(choices) >= MAX_CHOICES:
            break
        if known in held or (testable_only and known.kind is not AbilityKind.GENERAL):
            continue
        name = known.name(language.value)
        if name.casefold() in taken:
            continue
        label = f"{name} · {kind_label(known.kind, language)}"
        choices.append(app_commands.Choice(name=label[:CHOICE_LENGTH], value=name))
    if testable_only and character is None and _FIRST_AID is not None:
        name = _FIRST_AID.name(language.value)
        if needle in normalize(name) and len(choices) < MAX_CHOICES:
            label = f"{name} · {kind_label(AbilityKind.GENERAL, language)}"
            choices.append(app_commands.Choice(name=label, value=name))
    return choices[:MAX_CHOICES]


async def complete_ability(
    interaction: discord.Interaction[Any],
    typed: str,
    *,
    testable_only: bool = False,
    own_only: bool = False,
) -> list[app_commands.Choice[str]]:
    """Autocomplete of ``ability``, for the ``character`` already typed in the command."""
    if interaction.guild_id is None:
        return []
    typed_character = getattr(interaction.namespace, "character", None)
    async with services_of(interaction).storage.read() as reader:
        settings = await reader.get_settings(interaction.guild_id)
        character = None
        if isinstance(typed_character, str) and typed_character.strip():
            character, _ = await find_typed_character(
                reader, interaction.guild_id, typed_character.strip()[:CHOICE_LENGTH]
            )
    language = user_language(interaction.locale, settings.language, interaction.guild_locale)
    return ability_choices(
        character, typed[:CHOICE_LENGTH], language, testable_only=testable_only, own_only=own_only
    )


# --- replies -------------------------------------------------------------------------------


def _pool_text(ability: Ability) -> str:
    return f"{ability.pool}/{ability.rating}"


def set_sentence(
    character: StoredCharacter,
    before: Ability | None,
    after: Ability,
    changed: bool,
    language: Language,
) -> str:
    """What ``/ability set`` did, in one sentence."""
    params = {
        "character": safe(character.name),
        "ability": safe(after.name),
        "kind": kind_label(after.kind, language),
        "pool": after.pool,
        "rating": after.rating,
    }
    if not changed:
        return text(language, "abilities.set.unchanged", **params)
    if before is None:
        return text(language, "abilities.set.added", **params)
    old = f"{_pool_text(before)} {kind_label(before.kind, language)}"
    new = f"{_pool_text(after)} {kind_label(after.kind, language)}"
    return text(language, "abilities.set.corrected", before=old, after=new, **params)


def check_embed(
    character: StoredCharacter, roll: TestRoll, ability_name: str, language: Language
) -> discord.Embed:
    """The reply to ``/check``: the character's status embed (its pools as they are after the
    spend) with the test's field: ``DIE + SPEND = TOTAL vs DIFFICULTY`` and the outcome."""
    embed = status_embed(character, language)
    name, value = test_roll_field(roll, ability_name, language)
    embed.add_field(name=name, value=value, inline=False)
    return embed


# --- /ability set | remove -----------------------------------------------------------------


@app_commands.guild_only()
class AbilityCog(
    commands.GroupCog,
    group_name="ability",
    group_description=_("GM: add, correct or remove a character's abilities", key="cmd.ability"),
):
    """A character's abilities, as the GM writes them on its sheet."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="set", description=_("GM: add or correct an ability", key="cmd.ability.set")
    )
    @app_commands.describe(
        character=_("The character", key="cmd.ability.option.character"),
        ability=_("The ability's name (1–40 characters)", key="cmd.ability.set.ability"),
        rating=_("Rating, the most its pool holds (0–99)", key="cmd.ability.set.rating"),
        pool=_(
            "Points left in the pool (0–rating; default: full, or kept)",
            key="cmd.ability.set.pool",
        ),
        kind=_("General or investigative (default: as known)", key="cmd.ability.set.kind"),
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def set_ability_command(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        ability: app_commands.Range[str, 1, 40],
        rating: app_commands.Range[int, 0, 99],
        pool: app_commands.Range[int, 0, 99] | None = None,
        kind: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("abilities.action.set")
        check_range("rating", rating, 0, MAX_RATING)
        if pool is not None:
            check_range("pool", pool, 0, rating)
        chosen_kind = None if kind is None else AbilityKind(kind.value)
        name = ability_name(ability)
        refuse_reserved(name)
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            current = await fresh(tx, here, character)
            existing = current.ability(name)
            if existing is None:
                check_can_add(len(current.abilities))
            after = set_ability(existing, name, rating, pool, chosen_kind)
            saved = await tx.set_ability(current, after)
            details = {
                "ability": after.name,
                "kind": after.kind.value,
                "pool": after.pool,
                "rating": after.rating,
            }
            entry = await tx.record(**here.history("ability set", details))
        language = here.public_language
        await reply_with_status(
            interaction,
            here,
            saved,
            set_sentence(saved, existing, after, entry is not None, language),
        )

    @set_ability_command.autocomplete("ability")
    async def _set_ability_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current)

    @app_commands.command(
        name="remove", description=_("GM: remove an ability", key="cmd.ability.remove")
    )
    @app_commands.describe(
        character=_("The character", key="cmd.ability.option.character"),
        ability=_("The ability to remove", key="cmd.ability.remove.ability"),
    )
    async def remove_ability_command(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        ability: app_commands.Range[str, 1, 40],
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("abilities.action.remove")
        name = ability_name(ability)
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            current = await fresh(tx, here, character)
            removed = find_ability(current, name)
            saved = await tx.remove_ability(current, removed.name)
            details = {"ability": removed.name, "pool": f"{removed.pool}/{removed.rating}"}
            await tx.record(**here.history("ability remove", details))
        language = here.public_language
        await reply_with_status(
            interaction,
            here,
            saved,
            text(
                language,
                "abilities.remove.done",
                character=safe(saved.name),
                ability=safe(removed.name),
                pool=removed.pool,
                rating=removed.rating,
            ),
        )

    @remove_ability_command.autocomplete("ability")
    async def _remove_ability_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current, own_only=True)


# --- /spend and /check ---------------------------------------------------------------------


class AbilityUseCog(commands.Cog):
    """Spending from a pool and GUMSHOE tests, by the character's owner or a GM."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(
        name="spend", description=_("Spend points from an ability's pool", key="cmd.spend")
    )
    @app_commands.describe(
        character=_("The character", key="cmd.ability.option.character"),
        ability=_("The ability to spend from", key="cmd.spend.ability"),
        points=_("Points to spend (1–99)", key="cmd.spend.points"),
    )
    async def spend(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        ability: app_commands.Range[str, 1, 40],
        points: app_commands.Range[int, 1, 99],
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "abilities.action.spend")
        check_range("points", points, 1, MAX_POINTS)
        name = ability_name(ability)
        refuse_reserved(name)
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            current = await fresh(tx, here, character)
            before = find_ability(current, name)
            after = spend_ability(current.health, before, points)
            saved = await tx.set_ability(current, after)
            details = {
                "ability": after.name,
                "points": points,
                "pool": f"{before.pool} → {after.pool}",
            }
            await tx.record(**here.history("spend", details))
        language = here.public_language
        await reply_with_status(
            interaction,
            here,
            saved,
            text(
                language,
                f"abilities.spend.{after.kind.value}",
                character=safe(saved.name),
                ability=safe(after.name),
                points=count_text(language, "point", points),
                before=before.pool,
                pool=after.pool,
                rating=after.rating,
            ),
        )

    @spend.autocomplete("ability")
    async def _spend_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current)

    @app_commands.guild_only()
    @app_commands.command(
        name="check",
        description=_("Test a general ability: 1d6 + spend vs the Difficulty", key="cmd.check"),
    )
    @app_commands.describe(
        character=_("The character", key="cmd.ability.option.character"),
        ability=_("The general ability to test", key="cmd.check.ability"),
        difficulty=_(
            "Difficulty, or the Hit Threshold for an attack (0–99; default 4, attack 3)",
            key="cmd.check.difficulty",
        ),
        spend=_("Points of the ability's pool to add to the die (0–99)", key="cmd.check.spend"),
        attack=_("An attack: against the opponent's Hit Threshold", key="cmd.check.attack"),
    )
    async def check(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        ability: app_commands.Range[str, 1, 40],
        difficulty: app_commands.Range[int, 0, 99] | None = None,
        spend: app_commands.Range[int, 0, 99] = 0,
        attack: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "abilities.action.check")
        if difficulty is not None:
            check_range("difficulty", difficulty, 0, MAX_DIFFICULTY)
        check_range("spend", spend, 0, MAX_POINTS)
        name = ability_name(ability)
        first_aid = is_first_aid(name)
        if not first_aid:
            refuse_reserved(name)
        language = here.public_language
        roller = services_of(interaction).roller
        if spend == 0:
            # Nothing is spent: nothing is stored, and it is no change (COMMANDS.md).
            async with here.storage.read() as reader:
                current = await fresh(reader, here, character)
            tested = (
                first_aid_ability(current, language) if first_aid else find_ability(current, name)
            )
            roll = make_test(
                current.health, tested, difficulty=difficulty, spend=0, attack=attack, roller=roller
            )
            await send_public(
                interaction, embeds=[check_embed(current, roll, tested.name, language)]
            )
            return
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            current = await fresh(tx, here, character)
            tested = (
                first_aid_ability(current, language) if first_aid else find_ability(current, name)
            )
            roll = make_test(
                current.health,
                tested,
                difficulty=difficulty,
                spend=spend,
                attack=attack,
                roller=roller,
            )
            if first_aid:
                health = replace(current.health, first_aid_pool=roll.ability_after.pool)
                saved = await tx.save_health(current, health)
            else:
                saved = await tx.set_ability(current, roll.ability_after)
            details: dict[str, Any] = {
                "ability": tested.name,
                "roll": f"{roll.die} + {roll.spend} = {roll.total} vs {roll.difficulty}",
                "success": roll.success,
            }
            if attack:
                details["attack"] = True
            await tx.record(**here.history("check", details))
        await send_change(
            interaction,
            [check_embed(saved, roll, tested.name, language)],
            announce=False,
            here=here,
        )

    @check.autocomplete("ability")
    async def _check_autocomplete(
        self, interaction: discord.Interaction[SaludBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current, testable_only=True)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(AbilityCog(bot))
    await bot.add_cog(AbilityUseCog(bot))
