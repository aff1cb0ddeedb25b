"""One machinery for a roll that falls due and is made with buttons (issue 25 point 3): each
kind of roll is one ``DueRoll`` with one ``RollButton`` (``bot/features/rolls/``), the owner/GM
check and the press are the base's, the keeper sweeps every kind, a third kind needs nothing
but its own small module, and the buttons posted are what they were before the base."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.features.registry import PERSISTENT_BUTTONS
from bot.features.rolls.base import DueRoll, RollButton, roll_view
from bot.features.rolls.consciousness import consciousness_view
from bot.features.rolls.kinds import ROLL_BUTTONS, ROLL_KINDS
from bot.features.rolls.stability import stability_test_view
from bot.i18n import Language
from bot.interaction.buttons import CustomId, number
from bot.storage.models import StoredCharacter
from bot.storage.roll_messages import RollKind
from rules.character import CharacterHealth
from rules.stability import CharacterStability, DueTest

ROLLS = Path(__file__).resolve().parents[2] / "bot" / "features" / "rolls"


def _character(index: int, name: str, *, health: int = -3, pool: int = 4) -> StoredCharacter:
    return StoredCharacter(
        id=index,
        guild_id=1,
        name=name,
        owner_id=1,
        health=replace(CharacterHealth.new(8, 0), health=health, roll_pending=True),
        stability=replace(CharacterStability.new(8), pool=pool, due_test=DueTest(3, 4)),
    )


def test_every_kind_has_one_button_registered_and_swept() -> None:
    assert all(issubclass(button, RollButton) for button in ROLL_BUTTONS)
    assert set(ROLL_BUTTONS) <= set(PERSISTENT_BUTTONS)
    assert [button.roll_kind for button in ROLL_BUTTONS] == list(ROLL_KINDS)
    assert all(button.id_format is button.roll_kind.custom_id for button in ROLL_BUTTONS)
    # Every kind of roll message the storage keeps has its kind of button.
    assert {kind.kind for kind in ROLL_KINDS} == set(RollKind)


def test_only_the_base_presses_and_checks_who_may() -> None:
    """The owner/GM check and the press are written once, in the base, for every kind."""
    written = sorted(
        f"{path.name}: {found.group(0)}"
        for path in ROLLS.glob("*.py")
        if path.name != "base.py"
        for found in re.finditer(
            r"require_owner_or_gm|def pressed|names\(\)|response\.edit_message\(",
            path.read_text("utf-8"),
        )
    )
    assert written == []
    base = (ROLLS / "base.py").read_text("utf-8")
    assert "require_owner_or_gm" in base and "def pressed" in base, "the pattern sees the base"


def test_a_press_enters_its_kind_once() -> None:
    """A press calls one function of its kind's module, ``perform``; the base edits the
    pressed message and sends the reply with what the ``DueRoll`` names, all of it from
    outside that module (renderers of ``bot.render``, ``send_screened``), so that the walk of
    a press (docs/DESIGN.md) never goes back into the kind."""
    for kind in ROLL_KINDS:
        own = kind.perform.__module__
        assert own.startswith("bot.features.rolls."), own
        called = {
            field: getattr(kind, field).__module__
            for field in ("change_embeds", "roll_field", "announce", "send", "pressed_embeds")
        }
        assert own not in called.values(), (own, called)


class _Sanity(
    RollButton, custom_id=CustomId("zz", number("character_id"), number("spend", 2), number("n"))
):
    """A third kind of roll, as small as a kind can be (it is never pressed here)."""

    roll_kind: Any = None


async def _never(*_: object) -> Any:
    raise AssertionError("not pressed in this test")


_Sanity.roll_kind = DueRoll(
    kind=RollKind.STABILITY_TEST,
    custom_id=_Sanity.id_format,
    number_field="n",
    action="stability.action.roll",
    perform=_never,
    change_embeds=_never,
    roll_field=_never,
    announce=_never,
    send=_never,
    roll_label="health.button.roll",
    spend_label="health.button.spend",
    roll_label_named="stability.button.roll",
    spend_label_named="stability.button.spend",
)


def test_a_third_kind_is_one_small_module() -> None:
    """Its id, its labels and its view come from its ``DueRoll`` alone."""
    characters = [_character(0, "Amelia Ríos"), _character(1, "Jack Malone")]
    due = [(characters[0], 5, range(2)), (characters[1], 6, range(1))]
    view = roll_view(_Sanity, due, Language.EN, named=True)
    assert view is not None
    assert view.to_components() == [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 1,
                    "label": "Amelia: Roll",
                    "custom_id": "salud:zz:0:0:5",
                    "disabled": False,
                },
                {
                    "type": 2,
                    "style": 2,
                    "label": "Amelia: +1",
                    "custom_id": "salud:zz:0:1:5",
                    "disabled": False,
                },
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 1,
                    "label": "Jack: Roll",
                    "custom_id": "salud:zz:1:0:6",
                    "disabled": False,
                },
            ],
        },
    ]
    pressed = _Sanity.parse(re.fullmatch(_Sanity.id_format.template, "salud:zz:3:2:9"), "x")  # type: ignore[arg-type]
    assert (pressed.character_id, pressed.spend, pressed.number) == (3, 2, 9)
    assert _Sanity.roll_kind.is_button_of("salud:zz:3:1:9", 3, 9)
    assert not _Sanity.roll_kind.is_button_of("salud:zz:3:1:8", 3, 9)
    assert not _Sanity.roll_kind.is_button_of("salud:cons:3:1:9", 3, 9)


def test_the_consciousness_buttons_are_as_before() -> None:
    """Six characters: beyond five, only the roll buttons, five a row (as before the base:
    old messages and new ones carry the same ids and labels)."""
    names = ["Amelia Ríos", "Jack Malone", "Jack Smith", "Padre Tomás", "Olga Petrova", "Al"]
    characters = [_character(index, name, health=-1 - index) for index, name in enumerate(names)]
    view = consciousness_view(characters, Language.ES, {c.id: 10 + c.id for c in characters})
    assert view is not None
    rows = [
        [(button["custom_id"], button["label"], button["style"]) for button in row["components"]]
        for row in view.to_components()
    ]
    assert rows == [
        [
            ("salud:cons:0:0:10", "Amelia: Tirar", 1),
            ("salud:cons:1:0:11", "Jack Malone: Tirar", 1),
            ("salud:cons:2:0:12", "Jack Smith: Tirar", 1),
            ("salud:cons:3:0:13", "Padre Tomás: Tirar", 1),
            ("salud:cons:4:0:14", "Olga: Tirar", 1),
        ],
        [("salud:cons:5:0:15", "Al: Tirar", 1)],
    ]


def test_the_stability_buttons_are_as_before() -> None:
    characters = [_character(0, "Amelia Ríos", pool=-10), _character(1, "Jack Malone", pool=-9)]
    view = stability_test_view(characters, Language.EN, {0: 3, 1: 4})
    assert view is not None
    rows = [
        [(button["custom_id"], button["label"], button["style"]) for button in row["components"]]
        for row in view.to_components()
    ]
    assert rows == [
        [("salud:stab:0:0:3", "Amelia: Roll", 1), ("salud:stab:0:1:3", "Amelia: +1", 2)],
        [
            ("salud:stab:1:0:4", "Jack: Roll", 1),
            ("salud:stab:1:1:4", "Jack: +1", 2),
            ("salud:stab:1:2:4", "Jack: +2", 2),
        ],
    ]
