"""The synced commands are exactly COMMANDS.md's: names, options, order, types, ranges.

Server owners write these names into their table's notes, so a rename is a breaking change;
this test is the one place that pins every command and option at once.
"""

from __future__ import annotations

from typing import Any

from devkit.fake_discord import FakeDiscord
from devkit.harness import BotProcess

# Option types (Discord): 1 subcommand, 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role.
SUB, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE = 1, 3, 4, 5, 6, 7, 8

# name -> [(option, type, required, min, max)] ; min/max None when not a ranged integer.
CONTRACT: dict[str, list[tuple[str, int, bool, int | None, int | None]]] = {
    "character create": [
        ("name", STRING, True, None, None),
        ("health", INTEGER, True, 1, 99),
        ("first_aid", INTEGER, False, 0, 99),
        ("stability", INTEGER, False, 1, 99),
        ("player", USER, False, None, None),
        ("gender", STRING, False, None, None),
        ("numbers", STRING, False, None, None),
    ],
    "character show": [("character", STRING, False, None, None)],
    "character list": [],
    "character set": [
        ("character", STRING, True, None, None),
        ("health", INTEGER, False, -99, 99),
        ("max_health", INTEGER, False, 1, 99),
        ("first_aid", INTEGER, False, 0, 99),
        ("max_first_aid", INTEGER, False, 0, 99),
        ("conscious", BOOLEAN, False, None, None),
        ("gender", STRING, False, None, None),
        ("stability", INTEGER, False, -99, 99),
        ("max_stability", INTEGER, False, 0, 99),
        ("mental_illness", BOOLEAN, False, None, None),
        ("numbers", STRING, False, None, None),
    ],
    "character rename": [
        ("character", STRING, True, None, None),
        ("name", STRING, True, None, None),
    ],
    "character delete": [("character", STRING, True, None, None)],
    "hurt": [
        ("character", STRING, True, None, None),
        ("amount", STRING, True, None, None),
        ("reason", STRING, False, None, None),
        ("character2", STRING, False, None, None),
        ("character3", STRING, False, None, None),
        ("character4", STRING, False, None, None),
    ],
    "conscious": [
        ("character", STRING, False, None, None),
        ("spend", INTEGER, False, 0, 99),
    ],
    "firstaid": [
        ("medic", STRING, True, None, None),
        ("patient", STRING, True, None, None),
        ("points", INTEGER, True, 1, 99),
    ],
    "rest": [
        ("character", STRING, True, None, None),
        ("days", INTEGER, True, 1, 365),
        ("hospital", BOOLEAN, False, None, None),
    ],
    "scene new": [],
    "scene status": [],
    "scene tracker": [],
    "time": [("minutes", INTEGER, True, 1, 1440)],
    "refresh": [("character", STRING, False, None, None)],
    "history": [("character", STRING, False, None, None)],
    "undo": [],
    "config gm-role": [("role", ROLE, False, None, None)],
    "config channel": [("channel", CHANNEL, False, None, None)],
    "config language": [("language", STRING, True, None, None)],
    "table create": [
        ("name", STRING, True, None, None),
        ("place", CHANNEL, False, None, None),
        ("gm_role", ROLE, False, None, None),
        ("numbers", STRING, False, None, None),
    ],
    "table bind": [("table", STRING, True, None, None), ("place", CHANNEL, True, None, None)],
    "table unbind": [("place", CHANNEL, True, None, None)],
    "table list": [],
    "table rename": [("table", STRING, True, None, None), ("name", STRING, True, None, None)],
    "table delete": [("table", STRING, True, None, None)],
    "table gm-role": [("table", STRING, True, None, None), ("role", ROLE, False, None, None)],
    "table channel": [
        ("table", STRING, True, None, None),
        ("channel", CHANNEL, False, None, None),
    ],
    "table numbers": [
        ("table", STRING, True, None, None),
        ("numbers", STRING, True, None, None),
    ],
    "character move": [
        ("character", STRING, True, None, None),
        ("table", STRING, True, None, None),
    ],
    "help": [("command", STRING, False, None, None)],
    "ability set": [
        ("character", STRING, True, None, None),
        ("ability", STRING, True, None, None),
        ("rating", INTEGER, True, 0, 99),
        ("pool", INTEGER, False, 0, 99),
        ("kind", STRING, False, None, None),
    ],
    "ability remove": [
        ("character", STRING, True, None, None),
        ("ability", STRING, True, None, None),
    ],
    "spend": [
        ("character", STRING, True, None, None),
        ("ability", STRING, True, None, None),
        ("points", INTEGER, True, 1, 99),
        ("strain", INTEGER, False, 0, 99),
    ],
    "check": [
        ("character", STRING, True, None, None),
        ("ability", STRING, True, None, None),
        ("difficulty", INTEGER, False, 0, 99),
        ("spend", INTEGER, False, 0, 99),
        ("attack", BOOLEAN, False, None, None),
    ],
    "stability test": [
        ("loss", INTEGER, True, 1, 30),
        ("character", STRING, True, None, None),
        ("character2", STRING, False, None, None),
        ("character3", STRING, False, None, None),
        ("character4", STRING, False, None, None),
        ("difficulty", INTEGER, False, 1, 10),
        ("reason", STRING, False, None, None),
    ],
    "stability roll": [
        ("character", STRING, False, None, None),
        ("spend", INTEGER, False, 0, 99),
    ],
    "stability treat": [
        ("medic", STRING, True, None, None),
        ("patient", STRING, True, None, None),
        ("points", INTEGER, True, 1, 99),
        ("lucidity", BOOLEAN, False, None, None),
    ],
}

AUTOCOMPLETED = {
    "character",
    "character2",
    "character3",
    "character4",
    "medic",
    "patient",
    "amount",
    "loss",
    "ability",
    "command",
    "table",
}


def _synced(fake: FakeDiscord) -> dict[str, dict[str, Any]]:
    """Every synced chat-input command and subcommand by its full name."""
    found: dict[str, dict[str, Any]] = {}
    for command in fake.commands:
        subcommands = [o for o in command.get("options") or [] if o["type"] == SUB]
        if subcommands:
            for sub in subcommands:
                found[f"{command['name']} {sub['name']}"] = sub
        else:
            found[command["name"]] = command
    return found


async def test_every_command_and_option_is_the_contracts(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    synced = _synced(fake)
    assert sorted(synced) == sorted(CONTRACT)
    for name, expected in CONTRACT.items():
        options = synced[name].get("options") or []
        shown = [
            (o["name"], o["type"], bool(o.get("required")), o.get("min_value"), o.get("max_value"))
            for o in options
        ]
        assert shown == expected, name
        for option in options:
            assert bool(option.get("autocomplete")) == (option["name"] in AUTOCOMPLETED), (
                name,
                option["name"],
            )
    assert fake.command_errors == []


async def test_every_command_is_guild_only_english_named_and_described_in_spanish(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    for command in fake.commands:
        assert command.get("contexts") == [0], command["name"]
        # GM commands are checked by the bot: Discord must not hide them from the GM role.
        assert command.get("default_member_permissions") is None, command["name"]
        assert not command.get("name_localizations"), command["name"]
        assert command["description_localizations"]["es-ES"], command["name"]
        assert command["description_localizations"]["es-419"], command["name"]
        for option in command.get("options") or []:
            assert not option.get("name_localizations"), (command["name"], option["name"])
            assert option["description_localizations"]["es-ES"], (command["name"], option)


async def test_language_choices_are_es_and_en(fake: FakeDiscord, bot: BotProcess) -> None:
    language = _synced(fake)["config language"]["options"][0]
    assert sorted(choice["value"] for choice in language["choices"]) == ["en", "es"]
    kind = next(o for o in _synced(fake)["ability set"]["options"] if o["name"] == "kind")
    assert sorted(choice["value"] for choice in kind["choices"]) == ["general", "investigative"]


async def test_gender_choices_are_the_contracts(fake: FakeDiscord, bot: BotProcess) -> None:
    synced = _synced(fake)
    create = next(o for o in synced["character create"]["options"] if o["name"] == "gender")
    assert [choice["value"] for choice in create["choices"]] == ["feminine", "masculine"]
    correct = next(o for o in synced["character set"]["options"] if o["name"] == "gender")
    assert [choice["value"] for choice in correct["choices"]] == ["feminine", "masculine", "none"]
    spanish = [choice["name_localizations"]["es-ES"] for choice in correct["choices"]]
    assert spanish == ["femenino", "masculino", "sin indicar"]
