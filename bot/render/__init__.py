"""Rendering: embeds and sentences for every reply, in Spanish or English (pure, no I/O).

``rules/`` returns values and events; this package says them in words (catalog domain
``render``). Submodules: ``common`` (state words, flags, lists), ``status`` (the status
embed), ``events`` (one sentence per event, by its type), ``rolls`` (dice and tests),
``history``; the shapes of a change (COMMANDS.md "Changes"): ``change`` (one character, its
death, a GM's correction), ``several`` (a line each), ``brief`` (what moves no state), ``rest``,
``first_aid``, ``change_reply`` (a crowd); ``calls`` (the words that call a player); the
pages and replies of a command: ``scene`` (``/scene status``, the tracker), ``character_list``,
``history_page``, ``undo``, ``help``, ``abilities``, ``roll_buttons`` (a roll's buttons'
words); ``limits`` (Discord's limits and every colour), ``cut`` (a text cut to a length).
"""

from __future__ import annotations

import bot.render.table_history  # noqa: F401  (registers the sentence of a move)
from bot.render.change import death_embed
from bot.render.common import (
    count_text,
    duration_text,
    effects_text,
    flag_list,
    flags_text,
    join_words,
    mention,
    safe,
    state_colour,
    state_emoji,
    state_label,
)
from bot.render.events import describe_event, describe_events
from bot.render.history import entry_text, history_lines
from bot.render.limits import STATE_COLOURS
from bot.render.rolls import (
    ability_roll_field,
    arithmetic,
    consciousness_roll_field,
    damage_roll_text,
    expression_text,
)
from bot.render.status import CharacterLike, ability_entries, status_embed

__all__ = [
    "STATE_COLOURS",
    "CharacterLike",
    "ability_entries",
    "ability_roll_field",
    "arithmetic",
    "consciousness_roll_field",
    "count_text",
    "damage_roll_text",
    "death_embed",
    "describe_event",
    "describe_events",
    "duration_text",
    "effects_text",
    "entry_text",
    "expression_text",
    "flag_list",
    "flags_text",
    "history_lines",
    "join_words",
    "mention",
    "safe",
    "state_colour",
    "state_emoji",
    "state_label",
    "status_embed",
]
