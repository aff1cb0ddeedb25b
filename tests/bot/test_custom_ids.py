"""Each button's custom id is declared once (``bot.interaction.buttons.CustomId``): the
template discord.py matches presses against, the id of a new button and the fields the
keeper reads back all derive from it; and Discord's limits come from one module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.features.registry import PERSISTENT_BUTTONS
from bot.features.rolls.consciousness import CONSCIOUSNESS_ID, ConsciousnessButton
from bot.features.rolls.keeper import _disabled_components
from bot.interaction.buttons import (
    LARGEST_NUMBER,
    CustomId,
    IdField,
    SaludButton,
    at_most,
    choice,
    number,
)
from bot.render.limits import CUSTOM_ID_LIMIT

ROOT = Path(__file__).resolve().parents[2]

#: The ids of buttons already posted in servers: they must keep matching after any change.
POSTED = {
    "ConsciousnessButton": ("salud:cons:12:0", "salud:cons:12:3:7"),
    "StabilityTestButton": ("salud:stab:12:0:7", "salud:stab:12:3:8"),
    "DeleteButton": ("salud:del:12:yes", "salud:del:12:no"),
    "ListPageButton": ("salud:page:list:0", "salud:page:list:12345"),
    "HistoryPageButton": ("salud:page:history:0:2", "salud:page:history:12:1"),
    "UndoButton": ("salud:undo:5:42:yes", "salud:undo:5:42:no"),
    "StatusPageButton": ("salud:page:status:2",),
    "HelpButton": ("salud:help:rules", "salud:help:commands", "salud:help:stability"),
    # The Numbers button: up to four characters, or a whole table (issue 28).
    "NumbersButton": ("salud:num:7", "salud:num:7-12-3-9223372036854775807"),
    "TableNumbersButton": ("salud:numt:1577534459735965753",),
}


@pytest.mark.parametrize("kind", PERSISTENT_BUTTONS, ids=lambda kind: kind.__name__)
def test_each_kind_derives_its_template_from_its_one_declaration(
    kind: type[SaludButton],
) -> None:
    declared = kind.id_format
    assert kind.__discord_ui_compiled_template__.pattern == declared.template
    for posted in POSTED[kind.__name__]:
        fields = declared.read(posted)
        assert fields is not None, posted
        assert kind.__discord_ui_compiled_template__.fullmatch(posted)
        given = {name: value for name, value in fields.items() if value is not None}
        assert declared.build(**given) == posted
        others = [other for other in PERSISTENT_BUTTONS if other is not kind]
        assert not any(other.id_format.read(posted) for other in others), posted


def test_an_id_is_built_from_its_fields_and_refuses_what_its_template_would() -> None:
    undo = CustomId("undo", number("entry_id"), number("gm_id"), choice("answer", "yes", "no"))
    largest = at_most(LARGEST_NUMBER)
    assert undo.template == (
        rf"salud:undo:(?P<entry_id>{largest}):(?P<gm_id>{largest}):(?P<answer>yes|no)"
    )
    assert undo.build(entry_id=5, gm_id=42, answer="yes") == "salud:undo:5:42:yes"
    for wrong in ({"entry_id": 5, "gm_id": 42, "answer": "maybe"}, {"entry_id": 5}):
        with pytest.raises(ValueError):
            undo.build(**wrong)
    with pytest.raises(ValueError):
        undo.build(entry_id=5, gm_id=42, answer="yes", extra=1)
    long = CustomId("x", IdField("a", "[0-9]{1,200}"))
    with pytest.raises(ValueError, match=str(CUSTOM_ID_LIMIT)):
        long.build(a="9" * 120)
    with pytest.raises(ValueError):
        CustomId("x", number("a", optional=True), number("b"))


def test_the_consciousness_button_and_its_keeper_read_one_format() -> None:
    button = ConsciousnessButton(12, 2, "+2", roll=7)
    assert (
        button.item.custom_id
        == "salud:cons:12:2:7"
        == CONSCIOUSNESS_ID.build(character_id=12, spend=2, roll=7)
    )
    old = ConsciousnessButton(12, 0, "Roll").item.custom_id
    assert old == "salud:cons:12:0"
    rows = [
        {"type": 1, "components": [{"type": 2, "custom_id": button.item.custom_id}]},
        {"type": 1, "components": [{"type": 2, "custom_id": "salud:del:12:yes"}]},
    ]
    disabled, changed = _disabled_components(rows, {(12, 7)})
    assert changed
    assert disabled[0]["components"][0]["disabled"] is True
    assert "disabled" not in disabled[1]["components"][0], "another kind is left alone"


def test_ids_and_templates_are_written_only_where_ids_are_declared() -> None:
    """No module restates an id's format (``salud:…`` or a ``template=``) but the base."""
    written = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where == "bot/interaction/buttons.py":
                continue
            source = path.read_text(encoding="utf-8")
            written += [f"{where}: {m.group(0)}" for m in re.finditer(r"[\"']salud:[a-z]", source)]
            written += [f"{where}: template=" for _ in re.finditer(r"\btemplate=", source)]
    assert written == []


def test_discord_limits_are_not_restated() -> None:
    """Every Discord limit comes from ``bot/render/limits.py``: nothing shown is cut to one
    of them written as a number (25 choices or fields, 80 a label, 256 a title, 1024 a
    field, 2000 a message, 2048 a footer, 4096 a description, 6000 an embed, 100 an
    autocomplete choice). The storage shows nobody anything and is left out."""
    restated = re.compile(
        r"\[:\s*(?:25|80|256|1024|2000|2048|4096|6000)\]|Choice\(.*\[:100\]|ranked\[:25\]"
    )
    found = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where == "bot/render/limits.py" or where.startswith("bot/storage/"):
                continue
            for number_, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if restated.search(line.strip()):
                    found.append(f"{where}:{number_}: {line.strip()}")
    assert found == []


def test_a_number_field_takes_what_sqlite_stores_and_nothing_more() -> None:
    """Issue 24: a 20-digit id matched ``[0-9]{1,20}`` and reached SQLite as an
    ``OverflowError``. A number field now takes 0 to SQLite's largest integer, and a shorter
    field its digits."""
    delete = CustomId("del", number("character_id"), choice("answer", "yes", "no"))
    for fits in (0, 7, 2**53, 9223372036854775799, LARGEST_NUMBER):
        assert delete.read(f"salud:del:{fits}:yes") is not None, fits
    for past in (LARGEST_NUMBER + 1, 9223372036854775810, 10**19, 99999999999999999999, 10**30):
        assert delete.read(f"salud:del:{past}:yes") is None, past
        with pytest.raises(ValueError):
            delete.build(character_id=past, answer="yes")
    for limit in (0, 1, 9, 10, 99, 100, 255, 1000, 4096):
        pattern = re.compile(at_most(limit))
        assert [n for n in range(5000) if pattern.fullmatch(str(n))] == list(range(limit + 1))
    page = CustomId("page:x", number("page", 4))
    assert page.read("salud:page:x:9999") is not None
    assert page.read("salud:page:x:10000") is None
