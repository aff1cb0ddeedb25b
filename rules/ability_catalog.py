"""The usual Trail of Cthulhu abilities, in English and as El Rastro de Cthulhu names them.

The catalog only helps: it gives a new ability its kind when the GM leaves it out, and it
feeds autocomplete. Characters may hold abilities that are not in it.

The Spanish names are those of the Spanish edition (Edge Entertainment, 2008). Other common
Spanish renderings (``Documentación``, ``Detectar Mentiras``, ``Pelea`` …) and the English
``Flying`` are kept as aliases, so that a GM who types them still gets the right kind.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import Enum

from rules.names import reading_key, starts_a_word

__all__ = [
    "KNOWN_ABILITIES",
    "AbilityKind",
    "KnownAbility",
    "find_known",
    "known_kind",
    "normalize",
    "suggest",
]


class AbilityKind(Enum):
    """GUMSHOE's two kinds of ability (re-exported by ``rules.abilities``).

    Investigative points are spent for benefits and never rolled; general abilities are
    tested (P2, P3). Defined here so that the catalog needs no more of ``rules`` than its
    names (``rules.names``: the reading order of suggestions).
    """

    GENERAL = "general"
    INVESTIGATIVE = "investigative"


_INVESTIGATIVE = AbilityKind.INVESTIGATIVE
_GENERAL = AbilityKind.GENERAL


@dataclass(frozen=True)
class KnownAbility:
    """One ability of the game, with its name in both languages.

    ``reserved`` marks Health and First Aid: the bot keeps them as the character's own
    values, never as abilities, so autocomplete leaves them out.
    """

    english: str
    spanish: str
    kind: AbilityKind
    reserved: bool = False
    aliases: tuple[str, ...] = ()

    def name(self, language: str) -> str:
        """The name in ``language`` ("es" for Spanish, anything else for English)."""
        return self.spanish if language == "es" else self.english


def _inv(english: str, spanish: str, *aliases: str) -> KnownAbility:
    return KnownAbility(english, spanish, _INVESTIGATIVE, aliases=aliases)


def _gen(english: str, spanish: str, *aliases: str) -> KnownAbility:
    return KnownAbility(english, spanish, _GENERAL, aliases=aliases)


KNOWN_ABILITIES: tuple[KnownAbility, ...] = (
    # Investigative — Academic
    _inv("Accounting", "Contabilidad"),
    _inv("Anthropology", "Antropología"),
    _inv("Archaeology", "Arqueología"),
    _inv("Architecture", "Arquitectura"),
    _inv("Art History", "Historia del Arte"),
    _inv("Biology", "Biología"),
    _inv("Cthulhu Mythos", "Mitos de Cthulhu"),
    _inv("Cryptography", "Criptografía"),
    _inv("Geology", "Geología"),
    _inv("History", "Historia"),
    _inv("Languages", "Idiomas"),
    _inv("Law", "Derecho", "Leyes"),
    _inv("Library Use", "Buscar Libros", "Documentación"),
    _inv("Medicine", "Medicina"),
    _inv("Occult", "Ciencias Ocultas", "Ocultismo"),
    _inv("Physics", "Física"),
    _inv("Theology", "Teología"),
    # Investigative — Interpersonal
    _inv("Assess Honesty", "Evaluar Sinceridad", "Detectar Mentiras"),
    _inv("Bargain", "Regatear", "Negociación"),
    _inv("Bureaucracy", "Burocracia"),
    _inv("Cop Talk", "Jerga Policial"),
    _inv("Credit Rating", "Crédito"),
    _inv("Flattery", "Adulación"),
    _inv("Interrogation", "Interrogatorio"),
    _inv("Intimidation", "Intimidación"),
    _inv("Oral History", "Historia Oral"),
    _inv("Reassurance", "Consuelo", "Tranquilizar"),
    _inv("Streetwise", "Bajos Fondos"),
    # Investigative — Technical
    _inv("Art", "Habilidad Artística", "Arte"),
    _inv("Astronomy", "Astronomía"),
    _inv("Chemistry", "Química"),
    _inv("Craft", "Habilidad Artesanal", "Artesanía"),
    _inv("Evidence Collection", "Recogida de Pruebas", "Recoger Pruebas"),
    _inv("Forensics", "Medicina Forense"),
    _inv("Locksmith", "Cerrajería"),
    _inv("Outdoorsman", "Supervivencia", "Vida en la Naturaleza"),
    _inv("Pharmacy", "Farmacología", "Farmacia"),
    _inv("Photography", "Fotografía"),
    # General
    _gen("Athletics", "Atletismo"),
    _gen("Conceal", "Ocultar"),
    _gen("Disguise", "Disfraz"),
    _gen("Driving", "Conducción", "Conducir"),
    _gen("Electrical Repair", "Electricidad", "Reparaciones Eléctricas"),
    _gen("Explosives", "Explosivos"),
    _gen("Filch", "Birlar", "Hurtar"),
    _gen("Firearms", "Armas de Fuego"),
    KnownAbility("First Aid", "Primeros Auxilios", _GENERAL, reserved=True),
    _gen("Fleeing", "Huida"),
    KnownAbility("Health", "Salud", _GENERAL, reserved=True),
    _gen("Hypnosis", "Hipnosis"),
    _gen("Mechanical Repair", "Mecánica", "Reparaciones Mecánicas"),
    _gen("Piloting", "Pilotaje", "Flying", "Pilotar", "Pilotar Avión", "Pilotar Embarcación"),
    _gen("Preparedness", "Preparación"),
    _gen("Psychoanalysis", "Psicoanálisis", "Shrink"),
    _gen("Riding", "Monta", "Equitación"),
    _gen("Sanity", "Cordura"),
    _gen("Scuffling", "Escaramuza", "Pelea"),
    _gen("Sense Trouble", "Sentir el Peligro", "Percibir el Peligro"),
    _gen("Shadowing", "Seguir", "Seguimiento"),
    _gen("Stability", "Estabilidad"),
    _gen("Stealth", "Sigilo"),
    _gen("Weapons", "Armas"),
)


def normalize(text: str) -> str:
    """A key for loose comparison: trimmed, inner spaces collapsed, casefolded, no accents.

    Used to find catalog entries and for autocomplete; stored ability names are compared by
    ``casefold`` alone (COMMANDS.md), which this key never replaces.
    """
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()).casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _build_index() -> dict[str, KnownAbility]:
    index: dict[str, KnownAbility] = {}
    # Canonical names first, so that an alias never shadows another ability's own name.
    for known in KNOWN_ABILITIES:
        index.setdefault(normalize(known.english), known)
        index.setdefault(normalize(known.spanish), known)
    for known in KNOWN_ABILITIES:
        for alias in known.aliases:
            index.setdefault(normalize(alias), known)
    return index


_INDEX = _build_index()


def find_known(name: str) -> KnownAbility | None:
    """The catalog entry named ``name`` in either language (or by an alias), if any.

    Case, accents and extra spaces are ignored.
    """
    return _INDEX.get(normalize(name))


def known_kind(name: str) -> AbilityKind | None:
    """The kind of the known ability named ``name``, or None for an ability of the GM's own."""
    known = find_known(name)
    return None if known is None else known.kind


def suggest(text: str, language: str, limit: int = 25) -> list[KnownAbility]:
    """Known abilities for autocomplete, best first, at most ``limit``.

    An ability is suggested when the typed ``text`` starts one of the words of its name in
    ``language`` ("es" or "en"), of its name in the other language or of an alias (``tir``
    suggests nothing: no ability has a word starting so, and ``Sentir el Peligro`` or the
    alias ``Detectar Mentiras`` merely hold those letters). Names in ``language`` come first,
    then the other language's, then aliases; within each, a name that starts with ``text``
    before one with a later word that does; then the order a reader of ``language`` expects
    (``rules.names.reading_key``). Health and First Aid are never suggested (they are not
    abilities in the bot). Case and accents are ignored; an empty ``text`` lists everything.
    """
    if limit <= 0:
        return []
    needle = normalize(text)
    other = "en" if language == "es" else "es"
    ranked: list[tuple[int, str, int]] = []
    for position, known in enumerate(KNOWN_ABILITIES):
        if known.reserved:
            continue
        candidates = (
            (0, known.name(language)),
            (2, known.name(other)),
            *((4, alias) for alias in known.aliases),
        )
        best: int | None = None
        for tier, candidate in candidates:
            key = normalize(candidate)
            if key.startswith(needle):
                rank = tier
            elif starts_a_word(key, needle):
                rank = tier + 1
            else:
                continue
            best = rank if best is None else min(best, rank)
        if best is not None:
            ranked.append((best, reading_key(known.name(language), language), position))
    ranked.sort()
    return [KNOWN_ABILITIES[position] for _, _, position in ranked[:limit]]
