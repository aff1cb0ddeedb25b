"""Discord's limits — what one message, embed, button row or autocomplete holds, and the
length of a custom id — and the colours of every embed: said once here, used by every
reply, button and suggestion that must fit (``tests/bot/test_custom_ids.py`` fails when
another module writes a limit as a number)."""

from __future__ import annotations

import discord

from rules.state import HealthState

__all__ = [
    "BUTTONS_PER_ROW",
    "BUTTON_LABEL_LIMIT",
    "CHOICES_LIMIT",
    "CHOICE_LENGTH_LIMIT",
    "CONTENT_LIMIT",
    "CUSTOM_ID_LIMIT",
    "DESCRIPTION_LIMIT",
    "EMBEDS_PER_MESSAGE",
    "EMBED_TOTAL_LIMIT",
    "FIELDS_PER_EMBED",
    "FIELD_NAME_LIMIT",
    "FIELD_VALUE_LIMIT",
    "FOOTER_LIMIT",
    "INFO_COLOUR",
    "INSANITY_COLOUR",
    "ROWS_PER_MESSAGE",
    "STATE_COLOURS",
    "TITLE_LIMIT",
    "UNDO_PREVIEW_COLOUR",
]

#: A message's content, in characters.
CONTENT_LIMIT = 2000
#: Embeds in one message.
EMBEDS_PER_MESSAGE = 10
#: All the embeds of one message together, in characters.
EMBED_TOTAL_LIMIT = 6000
#: An embed's title.
TITLE_LIMIT = 256
#: An embed's description.
DESCRIPTION_LIMIT = 4096
#: An embed field's name.
FIELD_NAME_LIMIT = 256
#: An embed field's value.
FIELD_VALUE_LIMIT = 1024
#: An embed's footer.
FOOTER_LIMIT = 2048
#: Fields in one embed.
FIELDS_PER_EMBED = 25
#: A button's label.
BUTTON_LABEL_LIMIT = 80
#: A component's custom id.
CUSTOM_ID_LIMIT = 100
#: Rows of components in one message, and buttons in one row.
ROWS_PER_MESSAGE = 5
BUTTONS_PER_ROW = 5
#: Autocomplete: choices offered at once, and the characters of a choice's name and value
#: (also the longest text a string option takes).
CHOICES_LIMIT = 25
CHOICE_LENGTH_LIMIT = 100

#: Lists, pages, help and history: Discord's own blurple, no character's state colour.
INFO_COLOUR = discord.Colour(0x5865F2)
#: Incurable insanity's own embed (COMMANDS.md "Stability"): a mind lost is no wound, so
#: not a Health colour; a death's is ``STATE_COLOURS``.
INSANITY_COLOUR = discord.Colour(0x6C3483)
#: The private question of ``/undo`` (``bot/render/undo.py``).
UNDO_PREVIEW_COLOUR = discord.Colour(0xE67E22)
#: Embed colour of each state (COMMANDS.md, "The status embed"; ``state_colour``).
STATE_COLOURS: dict[HealthState, int] = {
    HealthState.HEALTHY: 0x2ECC71,
    HealthState.HURT: 0xF1C40F,
    HealthState.SERIOUSLY_WOUNDED: 0xE67E22,
    HealthState.DEAD: 0x23272A,
}
