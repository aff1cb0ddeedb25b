"""A corpus of bad input: every entry is a slash command the bot must refuse, ephemerally,
changing nothing.

Built from a few lists (malformed dice, names with control or invisible characters, numbers
out of range, names of characters that do not exist here, each changing command by someone
who may not use it on that character) crossed with the commands they apply to. The table they
are played against is set up by ``test_bad_input.py``:

- ``Ana`` (player ``ana``): Health 9/9, First Aid 4, abilities Library Use (investigative 2)
  and Athletics (general 2, pool 1);
- ``Bea`` (player ``bea``): Health 9/9, First Aid 0 — at full Health, nothing to heal;
- ``Dead`` (ana) at -12, ``Out`` (bea) unconscious at -3, ``Low`` (ana) at -10 with a roll
  pending, ``Mia`` and ``Max`` (player ``multi``, who therefore has several);
- player ``cid`` has no character; ``gm`` is the server's owner (Manage Server);
- ``Zed`` exists, but in another server.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from devkit.fake_discord import Raw

#: Who sends an entry: a member of the table (see the module docstring).
Actor = str


@dataclass(frozen=True)
class Bad:
    """One command that must be refused."""

    actor: Actor
    command: str
    options: Mapping[str, Any] = field(default_factory=dict)
    why: str = ""
    #: Dice the bot rolls before it refuses (a /hurt rolls before it reads the character).
    dice: int = 0

    def label(self) -> str:
        shown = {
            k: (repr(v)[:40] + "…" if len(repr(v)) > 40 else repr(v))
            for k, v in self.options.items()
        }
        return f"{self.actor}: /{self.command} {shown} ({self.why})"


# --- the ingredients -----------------------------------------------------------------------------
LONG = "x" * 10_000

#: Never an amount (COMMANDS.md: 1–999 or NdS±K with 1–20 dice of 2–100 sides, ±100, ASCII).
BAD_AMOUNTS: tuple[str, ...] = (
    "",
    " ",
    "abc",
    "d",
    "1d",
    "d6+",
    "1d6+",
    "1d6-",
    "1dd6",
    "1d6d6",
    "2x6",
    "1d6++1",
    "1d6+-1",
    "+5",
    "-5",
    "-0",
    "0",
    "00",
    "0d6",
    "1d0",
    "1d1",
    "21d6",
    "100d6",
    "1d101",
    "1d1000",
    "1d6+101",
    "1d6-101",
    "1000",
    "999999999999999999999999",
    "1e3",
    "1.5",
    "0x10",
    "5 5",
    "1 d 6",
    "½",
    "٥",
    "５",
    "𝟓",
    "Ⅴ",
    "five",
    "cinco",
    "1d6;DROP TABLE characters",
    "'; --",
    "${7*7}",
    "{{7*7}}",
    "%s%s%s",
    "\x00",
    "5\x00",
    "1d6\x00",
    "\u200b5",
    "5\u200b",
    "1\u200b0",
    "\u202e5",
    "\u200f1d6",
    "1d６",
    "1ｄ6",
    "x" * 101,
    "9" * 10_000,
    "1d6+" + "1" * 5_000,
    "<@123456789012345678>",
    "@everyone",
    "**5**",
    "`5`",
    "||5||",
    "1d6 + 1d6",
    "1d6*2",
    "(1d6)",
    "1d6!",
    "2d6kh1",
    "1d%",
    "d%",
    "1d6/2",
)

#: Never a character name (COMMANDS.md: 1–40 characters once trimmed; no Cc or Cf; something
#: visible; unique ignoring case — Ana and Bea exist here).
BAD_NAMES: tuple[str, ...] = (
    "",
    " ",
    "   ",
    "\u200b",
    "\u200b\u200b",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u202e",
    "\u200f",
    "\u2066x\u2069",
    "Ana\u200b",
    "\u200bAna",
    "A\u200dna",
    "\u202eanA",
    "A\x00na",
    "A\nna",
    "A\tna",
    "\x7f",
    "\x1b[31mRed",
    "N\u0085ext",
    "x" * 41,
    "é" * 41,
    "👍" * 41,
    LONG,
    "ANA",
    "ana",
    "bEA",
    "\u00ad",
    "a\u00adb",
    "\U000e0041",
    "\u180e",
    "ÁNA",  # the same name as Ana ignoring accents, ＡＮＡ ignoring width
    "ＡＮＡ",
    "\u0410na",  # looks like Ana (a Cyrillic А): UTS #39
    "B\u0435a",  # looks like Bea (a Cyrillic е)
)

#: Names of no character of this server (the typed name is trimmed, then compared ignoring
#: case, accents and width, or as the start of a word: these must differ by more than that).
UNKNOWN: tuple[str, ...] = (
    "Nobody",
    "",
    "\u200b",
    "Ana\u200b",
    "\u202eanA",
    "A\u200dna",
    "A na",
    "<@1234567890>",
    "@everyone",
    "@here",
    "<@&123>",
    "<#123>",
    "**Ana**",
    "__Ana__",
    "`Ana`",
    "||Ana||",
    "~~Ana~~",
    "[Ana](https://example.invalid)",
    "> Ana",
    "# Ana",
    "Ana\x00",
    "\x1b[31mAna",
    "Zed",
    "ＺＥＤ",  # full width of an unknown name (ＡＮＡ now names Ana: COMMANDS.md Names)
    "١",
    "💀",
    LONG,
    "' OR '1'='1",
    "Ana; DROP TABLE characters;--",
    "%",
    "_",
    "שלום",
    "مرحبا",
)


# --- the corpus ----------------------------------------------------------------------------------
def _unknown_references() -> Iterator[Bad]:
    """Every command that names a character, with a name no character here has."""
    for name in UNKNOWN:
        yield Bad("ana", "hurt", {"character": name, "amount": "1"}, "unknown character")
        yield Bad("ana", "conscious", {"character": name}, "unknown character")
        yield Bad("ana", "character show", {"character": name}, "unknown character")
        yield Bad("gm", "character set", {"character": name, "health": 5}, "unknown character")
        yield Bad("gm", "character delete", {"character": name}, "unknown character")
        yield Bad("ana", "rest", {"character": name, "days": 1}, "unknown character")
        yield Bad("ana", "history", {"character": name}, "unknown character")
        yield Bad("gm", "refresh", {"character": name}, "unknown character")
        yield Bad(
            "ana", "firstaid", {"medic": name, "patient": "Bea", "points": 1}, "unknown medic"
        )
        yield Bad(
            "ana", "firstaid", {"medic": "Ana", "patient": name, "points": 1}, "unknown patient"
        )
        yield Bad(
            "gm",
            "ability set",
            {"character": name, "ability": "Athletics", "rating": 2},
            "unknown character",
        )
        yield Bad(
            "ana", "spend", {"character": name, "ability": "Athletics", "points": 1}, "unknown"
        )
        yield Bad("ana", "check", {"character": name, "ability": "Athletics"}, "unknown")
        yield Bad(
            "ana", "character rename", {"character": name, "name": "Nuevo"}, "unknown character"
        )
        for extra in ("character2", "character3", "character4"):
            yield Bad(
                "ana", "hurt", {"character": "Ana", "amount": "1", extra: name}, "unknown target"
            )


def _amounts() -> Iterator[Bad]:
    for amount in BAD_AMOUNTS:
        yield Bad("ana", "hurt", {"character": "Ana", "amount": amount}, "bad amount")
    yield Bad("ana", "hurt", {"character": "Ana", "amount": "1", "reason": LONG}, "reason too long")
    yield Bad(
        "ana", "hurt", {"character": "Ana", "amount": "1", "reason": "y" * 101}, "reason too long"
    )


def _names() -> Iterator[Bad]:
    for name in BAD_NAMES:
        yield Bad("cid", "character create", {"name": name, "health": 9}, "bad name")
        # Bea renamed to BEA, or to B\u0435a, is a new spelling of its own name, not bad input.
        if name.strip().casefold() != "bea" and name != "B\u0435a":
            yield Bad("bea", "character rename", {"character": "Bea", "name": name}, "bad name")
    yield Bad("bea", "character rename", {"character": "Bea", "name": "Bea"}, "the same name")
    for health in (0, -1, 100, 10**9, -(2**53), 2**53):
        yield Bad("cid", "character create", {"name": "Nuevo", "health": health}, "health range")
    for first_aid in (-1, 100, 10**12):
        yield Bad(
            "cid",
            "character create",
            {"name": "Nuevo", "health": 9, "first_aid": first_aid},
            "first aid range",
        )
    yield Bad(
        "ana",
        "character create",
        {"name": "Nuevo", "health": 9, "player": "bea"},
        "a player creating for another",
    )
    yield Bad(
        "gm", "character create", {"name": "Nuevo", "health": 9, "player": "bot"}, "for the bot"
    )


def _numbers() -> Iterator[Bad]:
    huge = (10**9, -(10**9), 2**53)
    for spend in (-1, 100, *huge):
        yield Bad("ana", "conscious", {"character": "Low", "spend": spend}, "spend range")
    for points in (0, -1, 100, *huge):
        yield Bad("ana", "firstaid", {"medic": "Ana", "patient": "Low", "points": points}, "points")
    for days in (0, -1, 366, *huge):
        yield Bad("ana", "rest", {"character": "Ana", "days": days}, "days range")
    for minutes in (0, -1, 1441, *huge):
        yield Bad("gm", "time", {"minutes": minutes}, "minutes range")
    for option, values in (
        ("health", (-100, 100, *huge)),
        ("max_health", (0, -1, 100, *huge)),
        ("first_aid", (-1, 100, *huge)),
        ("max_first_aid", (-1, 100, *huge)),
    ):
        for value in values:
            yield Bad("gm", "character set", {"character": "Ana", option: value}, option)
    for rating in (-1, 100, *huge):
        yield Bad(
            "gm",
            "ability set",
            {"character": "Ana", "ability": "Athletics", "rating": rating},
            "rating range",
        )
    for pool in (-1, 100, 3, *huge):  # 3: above the rating 2
        yield Bad(
            "gm",
            "ability set",
            {"character": "Ana", "ability": "Athletics", "rating": 2, "pool": pool},
            "pool range",
        )
    for points in (0, -1, 100, *huge):
        yield Bad(
            "ana", "spend", {"character": "Ana", "ability": "Athletics", "points": points}, "pts"
        )
    for difficulty in (-1, 100, *huge):
        yield Bad(
            "ana",
            "check",
            {"character": "Ana", "ability": "Athletics", "difficulty": difficulty},
            "difficulty range",
        )
    for spend in (-1, 100, *huge):
        yield Bad(
            "ana", "check", {"character": "Ana", "ability": "Athletics", "spend": spend}, "spend"
        )


def _abilities() -> Iterator[Bad]:
    for name in (*BAD_NAMES[:25], "Health", "Salud", "First Aid", "primeros auxilios", "HEALTH"):
        if name in ("ANA", "ana", "bEA"):
            continue  # fine as ability names
        yield Bad(
            "gm",
            "ability set",
            {"character": "Ana", "ability": name, "rating": 2},
            "bad or reserved ability name",
        )
    for name in ("Nothing", "Health", "First Aid", "Athletics\u200b", LONG):
        yield Bad("ana", "spend", {"character": "Ana", "ability": name, "points": 1}, "ability?")
    yield Bad(
        "ana", "spend", {"character": "Ana", "ability": "Athletics", "points": 2}, "above pool"
    )
    yield Bad("ana", "check", {"character": "Ana", "ability": "Nothing"}, "unknown ability")
    yield Bad("ana", "check", {"character": "Ana", "ability": "Library Use"}, "investigative")
    yield Bad("ana", "check", {"character": "Dead", "ability": "Athletics"}, "dead")
    yield Bad("gm", "ability remove", {"character": "Zed", "ability": "Athletics"}, "elsewhere")


def _rules() -> Iterator[Bad]:
    """Well-formed commands the rules forbid in this state."""
    yield Bad("ana", "hurt", {"character": "Dead", "amount": "1"}, "dead (H5)")
    yield Bad("gm", "hurt", {"character": "Dead", "amount": "1d6"}, "dead (H5)", dice=1)
    yield Bad("ana", "conscious", {"character": "Ana"}, "not below zero (C6)")
    yield Bad("bea", "conscious", {"character": "Out"}, "unconscious")
    yield Bad("ana", "conscious", {"character": "Dead"}, "dead")
    yield Bad("ana", "conscious", {"character": "Low", "spend": 2}, "spend would kill (C4)")
    yield Bad("ana", "conscious", {}, "several characters")
    yield Bad("multi", "conscious", {}, "several characters")
    yield Bad("cid", "conscious", {}, "no character")
    yield Bad("cid", "character show", {}, "no character")
    yield Bad("multi", "character show", {}, "several characters")
    yield Bad("ana", "firstaid", {"medic": "Ana", "patient": "Ana", "points": 1}, "self (F1)")
    yield Bad("ana", "firstaid", {"medic": "Dead", "patient": "Bea", "points": 1}, "medic dead")
    yield Bad("bea", "firstaid", {"medic": "Out", "patient": "Ana", "points": 1}, "unconscious")
    yield Bad("ana", "firstaid", {"medic": "Ana", "patient": "Dead", "points": 1}, "patient dead")
    yield Bad("ana", "firstaid", {"medic": "Ana", "patient": "Bea", "points": 1}, "nothing to heal")
    yield Bad("bea", "firstaid", {"medic": "Bea", "patient": "Low", "points": 2}, "no First Aid")
    yield Bad("ana", "firstaid", {"medic": "Ana", "patient": "Low", "points": 1}, "stabilize: 2")
    yield Bad("gm", "character set", {"character": "Ana"}, "nothing to set")
    yield Bad("ana", "rest", {"character": "Low", "days": 1}, "needs hospital")
    yield Bad("ana", "rest", {"character": "Dead", "days": 1}, "dead")
    yield Bad("gm", "config language", {"language": "xx"}, "not a language")
    yield Bad("gm", "config language", {"language": ""}, "not a language")
    yield Bad("gm", "config gm-role", {"role": "everyone"}, "@everyone as GM role")


def _permissions() -> Iterator[Bad]:
    """Every changing command, by a player who may not use it on that character."""
    yield Bad("bea", "hurt", {"character": "Ana", "amount": "1"}, "not the owner")
    yield Bad("cid", "hurt", {"character": "Ana", "amount": "1d6"}, "not the owner")
    yield Bad("bea", "conscious", {"character": "Low"}, "not the owner")
    yield Bad("bea", "firstaid", {"medic": "Ana", "patient": "Low", "points": 2}, "medic's owner")
    yield Bad("cid", "rest", {"character": "Ana", "days": 1}, "not the owner")
    yield Bad("bea", "rest", {"character": "Low", "days": 2, "hospital": True}, "not the owner")
    for actor in ("ana", "bea", "cid"):
        yield Bad(actor, "character set", {"character": "Ana", "health": 5}, "GM only")
        yield Bad(actor, "scene new", {}, "GM only")
        yield Bad(actor, "time", {"minutes": 30}, "GM only")
        yield Bad(actor, "refresh", {}, "GM only")
        yield Bad(actor, "refresh", {"character": "Ana"}, "GM only")
        yield Bad(actor, "undo", {}, "GM only")
        yield Bad(
            actor, "ability set", {"character": "Ana", "ability": "Occult", "rating": 1}, "GM"
        )
        yield Bad(actor, "ability remove", {"character": "Ana", "ability": "Athletics"}, "GM")
        yield Bad(actor, "config gm-role", {}, "GM only")
        yield Bad(actor, "config channel", {}, "GM only")
        yield Bad(actor, "config language", {"language": "es"}, "GM only")
    yield Bad("bea", "character delete", {"character": "Ana"}, "not the owner")
    yield Bad("cid", "character delete", {"character": "Low"}, "not the owner")
    yield Bad("bea", "spend", {"character": "Ana", "ability": "Athletics", "points": 1}, "owner")
    yield Bad("bea", "check", {"character": "Ana", "ability": "Athletics"}, "not the owner")
    yield Bad("bea", "character create", {"name": "Nuevo", "health": 9, "player": "ana"}, "GM")
    yield Bad("bea", "character rename", {"character": "Ana", "name": "Nuevo"}, "not the owner")
    for actor in ("ana", "bea", "cid"):
        yield Bad(actor, "scene tracker", {}, "GM only")
    yield Bad(
        "bea",
        "hurt",
        {"character": "Bea", "amount": "1", "character2": "Ana"},
        "not the owner of every target",
    )
    yield Bad(
        "ana",
        "hurt",
        {"character": "Ana", "amount": "1", "character2": "Low", "character4": "ANA"},
        "a target twice",
    )
    yield Bad("gm", "hurt", {"character": "Ana", "amount": "0", "character2": "Bea"}, "amount")


def _odd_payloads() -> Iterator[Bad]:
    """Values of the wrong JSON type that Discord should never send (issue 13)."""
    yield Bad("gm", "character create", {"name": "Nueva", "health": Raw(True)}, "bool health")
    yield Bad("gm", "character create", {"name": "Nueva", "health": Raw(9.5)}, "float health")
    yield Bad("gm", "character create", {"name": "Nueva", "health": Raw("9")}, "text health")
    yield Bad("gm", "character create", {"name": Raw(5), "health": 9}, "number as a name")
    yield Bad(
        "gm", "character create", {"name": "Nueva", "health": 9, "player": Raw("notanid")}, "id"
    )
    yield Bad("ana", "hurt", {"character": "Ana", "amount": Raw(5)}, "number as an amount")
    yield Bad("ana", "hurt", {"character": "Ana", "amount": Raw(None)}, "null amount")
    yield Bad("ana", "hurt", {"character": Raw(["Ana"]), "amount": "1"}, "list as a name")
    yield Bad("gm", "character set", {"character": "Ana", "conscious": Raw("no")}, "text bool")


#: Wrong values for each option type (Discord's numbers: 3 string, 4 integer, 5 boolean,
#: 6 user, 7 channel, 8 role, 9 mentionable, 10 number).
WRONG_VALUES: Mapping[int, tuple[Any, ...]] = {
    3: (5, None, True, {"a": 1}),
    4: ("5", True, 9.5, None),
    5: ("yes", 1, None),
    6: ("notanid", 5, None),
    7: ("notanid", None),
    8: ("notanid", None),
    9: ("notanid",),
    10: ("5", True, None),
}
#: A well-typed value for the other required options of the command.
GOOD_STRINGS: Mapping[str, str] = {"amount": "1", "name": "Nueva", "ability": "Athletics"}


def _good_value(option: Mapping[str, Any]) -> Any:
    kind = int(option["type"])
    if kind == 3:
        choices = option.get("choices") or []
        if choices:
            return choices[0]["value"]
        return GOOD_STRINGS.get(str(option["name"]), "Ana")
    if kind == 4:
        return int(option.get("min_value") or 1)
    if kind == 5:
        return False
    if kind == 7:  # a required place (/table bind): a channel id without its resolved data
        return Raw("1")
    return None  # users and roles: optional in every command


def wrong_types(definitions: Sequence[Mapping[str, Any]]) -> list[Bad]:
    """For every option of every command the bot registered, each wrong type of value, the
    command's other required options well typed: each must get the "invalid value" error."""
    entries: list[Bad] = []

    def leaves(
        prefix: str, options: Sequence[Mapping[str, Any]]
    ) -> Iterator[tuple[str, Sequence[Mapping[str, Any]]]]:
        nested = [o for o in options if o.get("type") in (1, 2)]
        if not nested:
            yield prefix, options
        for option in nested:
            yield from leaves(f"{prefix} {option['name']}", option.get("options") or [])

    for definition in definitions:
        for command, options in leaves(str(definition["name"]), definition.get("options") or []):
            for option in options:
                others = {
                    o["name"]: _good_value(o)
                    for o in options
                    if o.get("required") and o["name"] != option["name"]
                }
                for value in WRONG_VALUES.get(int(option["type"]), ()):
                    entries.append(
                        Bad(
                            "gm",
                            command,
                            {**others, option["name"]: Raw(value)},
                            f"{option['name']} of type {option['type']} given {value!r}",
                        )
                    )
    return entries


def corpus() -> list[Bad]:
    """Every entry, in a stable order."""
    return [
        *_amounts(),
        *_names(),
        *_unknown_references(),
        *_numbers(),
        *_abilities(),
        *_rules(),
        *_permissions(),
        *_odd_payloads(),
    ]
