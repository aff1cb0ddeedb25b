"""Who may do what: the bot's own GM and owner checks (COMMANDS.md "Who may do what").

Discord's ``default_member_permissions`` would hide GM commands from members of the GM role,
so the bot checks every GM command itself, from the interaction alone (no extra API call).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import discord

__all__ = [
    "carried_role_ids",
    "has_manage_server",
    "has_role",
    "is_gm",
    "is_owner_or_gm",
]


#: The role ids the member's interaction carried (``carried_role_ids``), for the task that
#: runs it: ``Member.get_role`` finds only roles of servers the bot has cached.
_CARRIED_ROLE_IDS: ContextVar[frozenset[int]] = ContextVar(
    "salud_carried_role_ids", default=frozenset()
)


@contextmanager
def carried_role_ids(payload: Any) -> Iterator[None]:
    """While an ``INTERACTION_CREATE`` is handed to discord.py (``bot.gateway.intake``), keep the
    role ids its member carries, for the task discord.py creates for it."""
    member = payload.get("member") if isinstance(payload, dict) else None
    raw = member.get("roles") if isinstance(member, dict) else None
    ids = frozenset(
        int(role_id)
        for role_id in (raw if isinstance(raw, list) else ())
        if isinstance(role_id, str | int) and str(role_id).isdigit()
    )
    token = _CARRIED_ROLE_IDS.set(ids)
    try:
        yield
    finally:
        _CARRIED_ROLE_IDS.reset(token)


def has_role(user: discord.abc.User, role_id: int) -> bool:
    """Whether the member who used a command has the role: one the interaction carried, or
    one ``Member.get_role`` finds in the server's roles."""
    if role_id in _CARRIED_ROLE_IDS.get():
        return True
    return isinstance(user, discord.Member) and user.get_role(role_id) is not None


def has_manage_server(interaction: discord.Interaction) -> bool:
    """Manage Server (or Administrator, which implies it) in the member's resolved permissions."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    user = interaction.user
    if isinstance(user, discord.Member):
        guild_permissions = user.guild_permissions
        return guild_permissions.manage_guild or guild_permissions.administrator
    return False


def is_gm(interaction: discord.Interaction, gm_role_id: int | None) -> bool:
    """A GM: Manage Server, or a member of the server's configured GM role."""
    if interaction.guild_id is None:
        return False
    if has_manage_server(interaction):
        return True
    return gm_role_id is not None and has_role(interaction.user, gm_role_id)


def is_owner_or_gm(interaction: discord.Interaction, owner_id: int, gm_role_id: int | None) -> bool:
    """The character's owner, or a GM."""
    return interaction.user.id == owner_id or is_gm(interaction, gm_role_id)
