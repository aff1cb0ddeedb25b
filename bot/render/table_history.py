"""The history's sentence of a ``/character move`` (issue 27), registered with the others'
(``bot.render.history.sentence_of``) when ``bot.render`` is imported."""

from __future__ import annotations

from bot.i18n.catalogs import Language, text
from bot.render.common import safe
from bot.render.history import Sentence, sentence_of
from bot.storage.details import CharacterMoveDetails
from bot.storage.interface import HistoryEntry

__all__: list[str] = []


@sentence_of.register
def _move(details: CharacterMoveDetails, entry: HistoryEntry, language: Language) -> Sentence:
    """``Amelia Ríos pasa de «Mesa principal» a «Miskatonic»``: the tables by the names they
    had then (the main table unnamed in the reader's words)."""
    main = text(language, "table.main_name")
    words = text(
        language,
        "render.history.what.character_move",
        name=safe(details.name),
        old=safe(details.from_name) if details.from_name else main,
        table=safe(details.to_name) if details.to_name else main,
    )
    return Sentence(words, values=False)
