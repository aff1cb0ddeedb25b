"""One object per interaction, passed alone (issue 25 point 4): a ``Here`` carries its
interaction (``here.interaction``), so no function of bot/ or cogs/ takes both an
``interaction`` and a ``here`` — a caller could hand it one interaction and the ``Here`` of
another. ``send_change`` is the one exception: it also sends where no ``Here`` exists
(``here`` is optional there)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("bot", "cogs")
#: Functions whose ``here`` is optional: they also run without one.
HERE_OPTIONAL = {"send_change"}


def both_taken(path: Path, source: str) -> list[str]:
    """``file:line name`` of every function here that takes ``interaction`` and ``here``."""
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        names = {argument.arg for argument in arguments}
        if {"interaction", "here"} <= names and node.name not in HERE_OPTIONAL:
            found.append(f"{where}:{node.lineno} {node.name}")
    return found


def test_no_function_takes_an_interaction_beside_its_here() -> None:
    found = [
        hit
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
        for hit in both_taken(path, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_finds_a_function_that_takes_both(tmp_path: Path) -> None:
    source = (
        "async def send_reply(interaction, here, reply): ...\n"
        "async def send_change(interaction, embeds, *, here=None): ...\n"
        "class Button:\n"
        "    async def pressed(self, here): ...\n"
        "    async def callback(self, interaction): ...\n"
        "    async def old(self, interaction, *, here): ...\n"
    )
    assert both_taken(tmp_path / "reply.py", source) == ["reply.py:1 send_reply", "reply.py:6 old"]
