"""Discord's limits on what one message holds, and the colour of replies that show no
character's state: said once here, used by every reply that must fit."""

from __future__ import annotations

import discord

__all__ = [
    "BUTTON_LABEL_LIMIT",
    "CONTENT_LIMIT",
    "DESCRIPTION_LIMIT",
    "EMBEDS_PER_MESSAGE",
    "EMBED_TOTAL_LIMIT",
    "FIELD_NAME_LIMIT",
    "FIELD_VALUE_LIMIT",
    "FOOTER_LIMIT",
    "INFO_COLOUR",
    "TITLE_LIMIT",
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
#: A button's label.
BUTTON_LABEL_LIMIT = 80

#: Lists, pages, help and history: Discord's own blurple, no character's state colour.
INFO_COLOUR = discord.Colour(0x5865F2)
