"""Who may do what: the bot's own GM and owner checks (COMMANDS.md "Who may do what").

Discord's ``default_member_permissions`` would hide GM commands from members of the GM role,
so the bot checks every GM command itself, from the interaction alone (no extra API call).
"""

from __future__ import annotations

import discord

__all__ = [
    "has_manage_server",
    "is_gm",
    "is_owner_or_gm",
    "member_role_ids",
]


def member_role_ids(user: discord.abc.User) -> frozenset[int]:
    """The role ids of the member who used a command, however discord.py resolved them.

    ``Member.roles`` drops ids of roles missing from the guild cache; the ids the interaction
    carried are kept in ``Member._roles``, so both are read.
    """
    if not isinstance(user, discord.Member):
        return frozenset()
    ids = {role.id for role in user.roles}
    raw = getattr(user, "_roles", ())
    ids.update(int(role_id) for role_id in raw)
    return frozenset(ids)


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
    return gm_role_id is not None and gm_role_id in member_role_ids(interaction.user)


def is_owner_or_gm(interaction: discord.Interaction, owner_id: int, gm_role_id: int | None) -> bool:
    """The character's owner, or a GM."""
    return interaction.user.id == owner_id or is_gm(interaction, gm_role_id)
