"""The credits a published copy of Salud carries: the GUMSHOE SRD's attribution, in the words
its licence asks for, and no trademark of Pelgrane Press's games presented as Salud's own.

The SRD's copyright notice asks for one attribution sentence, word for word, where the work's own
copyright notice is; its trademark notice forbids using "Trail of Cthulhu" and the other game
names in a derivative work, so the package's metadata (what PyPI and `pip show` display as
Salud's description) names the GUMSHOE system, whose trademark the licence does grant."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# The SRD's own attribution language (GUMSHOE SRD, Creative Commons version, copyright notice).
SRD_ATTRIBUTION = (
    "This work is based on the GUMSHOE SRD (found at http://www.pelgranepress.com/?p=12466), a "
    "product of Pelgrane Press, developed, written, and edited by Robin D. Laws with additional "
    "material by Kenneth Hite, and licensed for our use under the Creative Commons Attribution "
    "3.0 Unported license (http://creativecommons.org/licenses/by/3.0/)."
)
PELGRANE_GAME_TRADEMARKS = (
    "Trail of Cthulhu",
    "Rastro de Cthulhu",
    "Esoterrorists",
    "Mutant City Blues",
    "Ashen Stars",
    "Fear Itself",
    "Night's Black Agents",
    "Nights Black Agents",
)


def readme_section(title: str) -> str:
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"the README has no section '## {title}'"
    return match.group(1)


def as_read(markdown: str) -> str:
    """The text a reader sees: autolinks' brackets dropped, emphasis marks dropped, one space."""
    text = re.sub(r"<(https?://[^>]+)>", r"\1", markdown)
    text = text.replace("*", "")
    return " ".join(text.split())


def test_readme_credits_the_srd_in_the_words_its_licence_asks_for() -> None:
    assert SRD_ATTRIBUTION in as_read(readme_section("Credits"))


def test_readme_credits_say_the_game_names_are_pelgrane_press_trademarks() -> None:
    credits = as_read(readme_section("Credits"))
    assert '"GUMSHOE" is a trademark of Pelgrane Press' in credits
    assert "Trail of Cthulhu is a trademark of Pelgrane Press" in credits
    assert "not published, endorsed or approved by Pelgrane Press" in credits


def test_the_package_description_uses_no_game_trademark_as_salud_s_own() -> None:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    description = project["project"]["description"]
    assert "GUMSHOE" in description
    for trademark in PELGRANE_GAME_TRADEMARKS:
        assert trademark.lower() not in description.lower(), description
