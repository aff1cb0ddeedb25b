"""The one helper kit of the end-to-end and reliability tests.

- ``processes``: a fake Discord and the bot logged in to it (the fixtures' only way to get them).
- ``commands``: steps players take that a test is not about (create a character, a GM's set).
- ``replies``: what a reply shows (fields, Health and state lines, refusals).
- ``rolls``: the rolls a reply shows, their arithmetic checked against the die.
- ``db``: what the bot stored, read from its SQLite file (read-only).
- ``table``: a small table of players (a GM, a GM by role, two players) for the ability tests.
- ``faults``: the fake Discord misbehaving on purpose (interactions that arrive late).
- ``undo``: ``/undo`` as a GM uses it (preview, then Confirm).
"""

from __future__ import annotations

from tests.e2e.kit.commands import (
    announcing_gm,
    correct,
    create,
    delete,
    gm_of,
    gm_set,
    gm_with,
    gms_by_permission_and_role,
    permission_cast,
    replay,
    try_create,
    uno_and_dos_hurt,
)
from tests.e2e.kit.db import (
    abilities,
    guild_state,
    history,
    history_commands,
    history_count,
    insert_characters,
    last_details,
    read_only,
    rows,
    stored,
    writable,
)
from tests.e2e.kit.faults import SLOW_COMMIT_SECONDS, shifted_clock, slow_disk
from tests.e2e.kit.replies import (
    HEALTH_LINE,
    assert_refused,
    field,
    fits_discord,
    health_change_shown,
    health_shown,
    message_bodies,
    refused_at_once,
    several_lines,
    state_shown,
    what_happened,
)
from tests.e2e.kit.rolls import (
    ROLL,
    DamageShown,
    Roll,
    RollShown,
    check_roll,
    damage_shown,
    parse_roll,
    roll_shown,
)
from tests.e2e.kit.table import Table, make_table
from tests.e2e.kit.undo import Undone, confirm_id, shown_back, undo

__all__ = [
    "HEALTH_LINE",
    "ROLL",
    "SLOW_COMMIT_SECONDS",
    "DamageShown",
    "Roll",
    "RollShown",
    "Table",
    "Undone",
    "abilities",
    "announcing_gm",
    "assert_refused",
    "check_roll",
    "confirm_id",
    "correct",
    "create",
    "damage_shown",
    "delete",
    "field",
    "fits_discord",
    "gm_of",
    "gm_set",
    "gm_with",
    "gms_by_permission_and_role",
    "guild_state",
    "health_change_shown",
    "health_shown",
    "history",
    "history_commands",
    "history_count",
    "insert_characters",
    "last_details",
    "make_table",
    "message_bodies",
    "parse_roll",
    "permission_cast",
    "read_only",
    "refused_at_once",
    "replay",
    "roll_shown",
    "rows",
    "several_lines",
    "shifted_clock",
    "shown_back",
    "slow_disk",
    "state_shown",
    "stored",
    "try_create",
    "undo",
    "uno_and_dos_hurt",
    "what_happened",
    "writable",
]
