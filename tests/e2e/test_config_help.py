"""``/config`` and ``/help`` end to end: GM-only settings, announcements, languages, help."""

from __future__ import annotations

from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.phone import message_lines
from tests.e2e.kit import gm_of, refused_at_once, try_create

#: COMMANDS.md ``/help``: the commands on one phone screen.
HELP_LINES = 30


# --- /config is for GMs, ephemeral ---
async def test_config_commands_refuse_players(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana = guild.member("Ana")
    role = guild.role("GM")
    for command, options in (
        ("config gm-role", {"role": role}),
        ("config channel", {"channel": guild.announcements}),
        ("config language", {"language": "es"}),
    ):
        refused_at_once(
            await fake.slash(guild, ana, command, options), "Only a GM", "Manage Server"
        )
    spanish = guild.member("Pepa", locale="es-ES")
    refused_at_once(
        await fake.slash(guild, spanish, "config language", {"language": "es"}),
        "Solo un DJ",
        "Gestionar servidor",
    )


async def test_gm_role_makes_its_members_gms_until_cleared(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    role = guild.role("Guardianes")
    keeper = guild.member("Keeper", roles=[role])
    ana = guild.member("Ana")
    await try_create(fake, guild, ana, "Ana")
    reply = await fake.slash(guild, gm_of(guild), "config gm-role", {"role": role})
    refused_at_once(reply, "GM role set", f"<@&{role.id}>")
    assert reply.body is not None and reply.body["data"]["allowed_mentions"]["parse"] == []

    # A GM by role may create for another player and configure too.
    made = await fake.slash(
        guild, keeper, "character create", {"name": "De Ana", "health": 5, "player": ana}
    )
    assert not made.ephemeral
    refused_at_once(
        await fake.slash(guild, keeper, "config language", {"language": "en"}), "English"
    )

    refused_at_once(await fake.slash(guild, keeper, "config gm-role"), "GM role cleared")
    refused_at_once(
        await fake.slash(guild, keeper, "character set", {"character": "Ana", "health": 1}),
        "Only a GM",
    )


async def test_everyone_cannot_be_the_gm_role(fake: FakeDiscord, guild: FakeGuild) -> None:
    refused_at_once(
        await fake.slash(guild, gm_of(guild), "config gm-role", {"role": guild.everyone}),
        "`@everyone` cannot be the GM role",
    )


async def test_announcement_channel_gets_state_changes_and_deaths_except_from_itself(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await try_create(fake, guild, gm, "Carter", 10)
    reply = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    refused_at_once(reply, "Announcement channel set", guild.announcements.mention)

    # Health down but still Healthy: no announcement.
    await fake.slash(guild, gm, "character set", {"character": "Carter", "health": 5})
    # Healthy -> Seriously wounded: announced.
    await fake.slash(guild, gm, "character set", {"character": "Carter", "health": -7})
    posts = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert len(posts) == 1 and "Carter" in str(posts[0]["embeds"])
    # A death: announced with its own embed.
    await fake.slash(guild, gm, "character set", {"character": "Carter", "health": -12})
    posts = await fake.wait_channel_messages(guild.announcements.id, 2)
    assert any(e.get("title") == "Carter has died" for e in posts[1]["embeds"])
    # Used in the announcement channel itself: answered there once, not posted again.
    here = await fake.slash(
        guild,
        gm,
        "character set",
        {"character": "Carter", "health": 3},
        channel=guild.announcements,
    )
    assert not here.ephemeral
    assert len(fake.channel_messages(guild.announcements.id)) == 2

    refused_at_once(await fake.slash(guild, gm, "config channel"), "Announcement channel cleared")
    await fake.slash(guild, gm, "character set", {"character": "Carter", "health": -12})
    assert len(fake.channel_messages(guild.announcements.id)) == 2


async def test_announcement_failure_does_not_break_the_reply(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await try_create(fake, guild, gm, "Lovecraft", 6)
    await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    fake.forbidden_channels.add(guild.announcements.id)
    try:
        reply = await fake.slash(
            guild, gm, "character set", {"character": "Lovecraft", "health": -1}
        )
    finally:
        fake.forbidden_channels.discard(guild.announcements.id)
    assert not reply.ephemeral and reply.embed["title"] == "Lovecraft"


async def test_language_sets_public_messages_and_users_keep_their_own_for_errors(
    fake: FakeDiscord, guild: FakeGuild, make_guild: Any
) -> None:
    gm = gm_of(guild)
    reply = await fake.slash(guild, gm, "config language", {"language": "es"})
    refused_at_once(reply, "Spanish")
    created = await try_create(fake, guild, gm, "Ramiro")
    assert created.embed["fields"][0]["name"] == "Salud"
    # An English user's refusal stays English; a Spanish user's is Spanish.
    refused_at_once(
        await try_create(fake, guild, guild.member("Ann"), "ramiro"), "There is already"
    )
    refused_at_once(
        await try_create(fake, guild, guild.member("Eva", locale="es-ES"), "ramiro"), "Ya hay"
    )
    # A user whose Discord language is neither gets the server's language.
    refused_at_once(
        await try_create(fake, guild, guild.member("Hans", locale="de"), "ramiro"), "Ya hay"
    )

    spanish = await make_guild(locale="es-ES")
    spanish_gm = gm_of(spanish)
    await fake.slash(spanish, spanish_gm, "config language", {"language": "en"})
    reply = await try_create(fake, spanish, spanish_gm, "Ramiro")
    assert reply.embed["fields"][0]["name"] == "Health"


async def test_language_choices_have_localised_labels(fake: FakeDiscord) -> None:
    config = fake.find_command(None, "config")
    language = next(o for o in config["options"] if o["name"] == "language")
    choices = language["options"][0]["choices"]
    assert [c["value"] for c in choices] == ["es", "en"]
    english = next(c for c in choices if c["value"] == "en")
    assert english["name"] == "English" and english["name_localizations"]["es-ES"] == "Inglés"
    names = {o["name"] for o in config["options"]}
    assert names == {"gm-role", "channel", "language"}
    assert config["default_member_permissions"] is None, "the bot checks GMs itself"


# --- /help ---
async def test_help_is_ephemeral_in_the_users_language(fake: FakeDiscord, guild: FakeGuild) -> None:
    english = await fake.slash(guild, guild.member("Ann"), "help")
    refused_at_once(english, "/character create", "Consciousness roll", "/undo")
    spanish = await fake.slash(guild, guild.member("Eva", locale="es-419"), "help")
    refused_at_once(spanish, "/character create", "Tirada de Consciencia", "Solo DJ")
    assert fake.violations == []


@pytest.mark.parametrize(
    ("locale", "rules", "commands", "rules_title", "stability", "health", "stability_title"),
    [
        (
            "en-US",
            "The rules",
            "The commands",
            "The rules: Health",
            "Stability",
            "Health",
            "The rules: Stability",
        ),
        (
            "es-ES",
            "Las reglas",
            "Los comandos",
            "Las reglas: Salud",
            "Estabilidad",
            "Salud",
            "Las reglas: Estabilidad",
        ),
    ],
)
async def test_help_is_one_phone_screen_with_the_rules_a_button_away(
    fake: FakeDiscord,
    guild: FakeGuild,
    locale: str,
    rules: str,
    commands: str,
    rules_title: str,
    stability: str,
    health: str,
    stability_title: str,
) -> None:
    """COMMANDS.md ``/help``: the commands on one phone screen (at most 30 lines) with a
    button to the summary of the rules. Issue 20: it was 87 lines, three phone screens.
    Issue 24: the rules of Stability, summarised as Health's are, are a screen of their own
    a button away from Health's (both on one page took 49 lines)."""
    reader = guild.member(f"Reader-{locale}", locale=locale)
    shown = await fake.slash(guild, reader, "help")
    assert shown.ephemeral
    assert message_lines(shown.message) <= HELP_LINES, message_lines(shown.message)
    for name in _leaf_names(fake):  # every command is on it, by name or as a sub-command
        group, _, sub = name.partition(" ")
        assert f"/{group}" in shown.text and (not sub or sub in shown.text), name
    assert [button["label"] for button in shown.buttons] == [rules]

    to_rules = await fake.click(guild, reader, shown, shown.button(rules)["custom_id"])
    assert to_rules.type == 7 and to_rules.ephemeral
    assert to_rules.embed["title"] == rules_title
    assert to_rules.message is not None and message_lines(to_rules.message) <= HELP_LINES
    assert [button["label"] for button in to_rules.buttons] == [commands, stability]
    rules_embed = to_rules.embed
    back = await fake.click(guild, reader, to_rules, to_rules.button(commands)["custom_id"])
    assert back.embed == shown.embed

    to_rules = await fake.click(guild, reader, back, back.button(rules)["custom_id"])
    to_stability = await fake.click(
        guild, reader, to_rules, to_rules.button(stability)["custom_id"]
    )
    assert to_stability.type == 7 and to_stability.ephemeral
    assert to_stability.embed["title"] == stability_title
    assert to_stability.message is not None
    assert message_lines(to_stability.message) <= HELP_LINES
    assert [button["label"] for button in to_stability.buttons] == [commands, health]
    again = await fake.click(guild, reader, to_stability, to_stability.button(health)["custom_id"])
    assert again.embed == rules_embed


def _leaf_names(fake: FakeDiscord) -> list[str]:
    """Every command a user can run, as ``/help command`` names it."""
    names = []
    for command in fake.commands:
        subs = [o for o in command.get("options") or [] if o["type"] == 1]
        names += [f"{command['name']} {sub['name']}" for sub in subs] or [command["name"]]
    return sorted(names)


@pytest.mark.parametrize(
    ("locale", "who", "example", "options"),
    [
        ("en-US", "Who may use it", "Example", "Options"),
        ("es-ES", "Quién puede usarlo", "Ejemplo", "Opciones"),
    ],
)
async def test_help_command_has_a_page_for_every_command(
    fake: FakeDiscord, guild: FakeGuild, locale: str, who: str, example: str, options: str
) -> None:
    member = guild.member(f"Reader-{locale}", locale=locale)
    names = _leaf_names(fake)
    assert len(names) >= 20
    for name in names:
        reply = await fake.slash(guild, member, "help", {"command": name})
        assert reply.ephemeral, (name, reply.text)
        page = reply.embed
        assert page["title"] == f"/{name}"
        fields = {field["name"]: field["value"] for field in page["fields"]}
        assert set(fields) == {options, who, example}, (name, fields)
        assert f"/{name}" in fields[example], (name, fields[example])
        assert len(page["description"]) > 5
    hurt = await fake.slash(guild, member, "help", {"command": "/HURT"})
    lines = hurt.embed["fields"][0]["value"].splitlines()
    assert [line.split("`")[1] for line in lines] == ["character", "amount", "reason", "character2"]
    assert lines[3].startswith("• `character2`–`character4` ("), "character2–4: one line"
    if locale == "es-ES":
        assert "(obligatoria) — El personaje herido" in lines[0]
        assert hurt.embed["description"] == "Hace daño a un personaje"
    else:
        assert "(required) — The character hit" in lines[0]
    language = await fake.slash(guild, member, "help", {"command": "config language"})
    labels = "Español o Inglés" if locale == "es-ES" else "Español or English"
    assert labels in language.embed["fields"][0]["value"]


@pytest.mark.parametrize(
    ("locale", "optional", "gender", "example"),
    [
        ("en-US", "optional", "the character: she/her or he/him", "gender: she/her`"),
        ("es-ES", "opcional", "de ella las respuestas: femenino o masculino", "gender: femenino`"),
    ],
)
async def test_a_command_page_says_each_option_once_as_the_users_discord_shows_it(
    fake: FakeDiscord, guild: FakeGuild, locale: str, optional: str, gender: str, example: str
) -> None:
    """Issue 20: Spanish pages showed ``Valores: `feminine`, `masculine``` while the Spanish
    picker says ``femenino``, ``(opcional)`` twice, three identical lines for character2..4."""
    member = guild.member(f"Reader-{locale}", locale=locale)
    for name in _leaf_names(fake):
        page = (await fake.slash(guild, member, "help", {"command": name})).embed
        for line in page["fields"][0]["value"].splitlines():
            assert line.count(optional) <= 1, (name, line)
    create = (await fake.slash(guild, member, "help", {"command": "character create"})).embed
    options, _, examples = (field["value"] for field in create["fields"])
    assert gender in options and examples.endswith(example)


async def test_help_command_autocompletes_and_refuses_an_unknown_command(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    member = guild.member("Eva", locale="es-ES")
    choices = await fake.autocomplete(guild, member, "help", {"command": "char"}, focused="command")
    values = [choice["value"] for choice in choices]
    assert values == [
        "character create",
        "character delete",
        "character list",
        "character move",
        "character rename",
        "character set",
        "character show",
    ]
    assert choices[0]["name"].startswith("/character create — Crea un personaje")
    everything = await fake.autocomplete(guild, member, "help", {"command": ""}, focused="command")
    # Discord shows at most 25 choices: the first 25 commands, by name.
    assert [choice["value"] for choice in everything] == _leaf_names(fake)[:25]
    unknown = await fake.slash(guild, member, "help", {"command": "fly"})
    assert unknown.ephemeral and "No hay ningún comando «fly»" in unknown.text


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("estab", {"stability roll", "stability test", "stability treat", "firstaid"}),
        ("cur", {"firstaid", "rest", "stability treat"}),
        ("herid", {"hurt", "firstaid"}),
        ("Daño", {"hurt"}),
        ("psicoanalisis", {"stability treat"}),
        ("deshacer", {"undo"}),
    ],
)
async def test_help_command_autocompletes_spanish_words(
    fake: FakeDiscord, guild: FakeGuild, locale: str, typed: str, expected: set[str]
) -> None:
    """Issue 24 (6): command names are English in every language, so a Spanish player typing
    ``estab``, ``cur`` or ``herid`` found nothing. The words are matched in both languages
    (a Spanish player whose Discord speaks English types Spanish too), accents ignored."""
    member = guild.member(f"Busca-{locale}", locale=locale)
    choices = await fake.autocomplete(guild, member, "help", {"command": typed}, focused="command")
    values = [choice["value"] for choice in choices]
    assert expected <= set(values), values
    assert len(values) <= len(expected) + 2, values  # the words find, they do not flood
    description = "Hace daño a un personaje" if locale == "es-ES" else "Damage a character"
    if typed == "Daño":
        assert choices[0]["name"].startswith(f"/hurt — {description}"), choices[0]


async def test_help_command_names_still_come_first(fake: FakeDiscord, guild: FakeGuild) -> None:
    """A command's name wins over a word of another command: ``stability`` lists the three
    Stability commands before ``/character set`` (which corrects Stability)."""
    member = guild.member("Nombres", locale="es-ES")
    choices = await fake.autocomplete(
        guild, member, "help", {"command": "stability"}, focused="command"
    )
    values = [choice["value"] for choice in choices]
    assert values[:3] == ["stability roll", "stability test", "stability treat"], values
    assert "character set" in values[3:]


#: What the rules page says of Stability, in each language: the test and its spend, the
#: scene's cap, a mental illness at −6, incurable insanity, Psychoanalysis and lucidity.
RULES_PAGE_STABILITY = {
    "es-ES": (
        "**Prueba de Estabilidad**",
        "Estabilidad gastada, que se pierde pase lo que pase",
        "nunca quitan más que su peor incidente",
        "−6 y −11 contrae un **trastorno mental**",
        "**Locura incurable** −12 o menos",
        "**Psicoanálisis**: cada punto devuelve 2 de Estabilidad",
        "escena de lucidez",
        "prueba de compostura",
    ),
    "en-US": (
        "**Stability test**",
        "Stability spent, lost whatever the outcome",
        "never take more than the scene's worst incident",
        "−6 to −11 brings a **mental illness**",
        "**Incurably insane** −12 or less",
        "**Psychoanalysis**: each point restores 2 Stability",
        "lucid scene",
        "composure test",
    ),
}


async def test_the_rules_page_summarises_stability_as_it_does_health_in_both_languages(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    """Issue 24 (6): the rules page gave Health four paragraphs and Stability only its states
    (the composure test in English alone). Now Stability's rules have their page, a button
    away from Health's, summarised as Health's are, alike in both languages."""
    pages = {}
    for locale, facts in RULES_PAGE_STABILITY.items():
        reader = guild.member(f"Reglas-{locale}", locale=locale)
        shown = await fake.slash(guild, reader, "help")
        health = await fake.click(guild, reader, shown, shown.buttons[0]["custom_id"])
        page = await fake.click(guild, reader, health, health.buttons[-1]["custom_id"])
        description = page.embed["description"]
        for fact in facts:
            assert fact in description, (locale, fact, description)
        assert page.message is not None and message_lines(page.message) <= HELP_LINES
        pages[locale] = description
    spanish, english = pages["es-ES"], pages["en-US"]
    # Alike: the same paragraphs, the same terms in bold, the same numbers.
    assert spanish.count("\n") == english.count("\n")
    assert spanish.count("**") == english.count("**")
    digits = "".join(sorted(char for char in spanish if char.isdigit()))
    assert digits == "".join(sorted(char for char in english if char.isdigit()))
