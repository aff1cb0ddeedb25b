"""Who may do what: the bot's own GM and owner checks (COMMANDS.md "Who may do what").

Discord's ``default_member_permissions`` would hide GM commands from members of the GM role,
so the bot checks every GM command itself, from the interaction alone (no extra API call):
the role ids its member carried (``SaludInteraction.role_ids``) are given with it.
"""

from __future__ import annotations

from typing import Any

import discord

__all__ = ["has_manage_server", "has_role", "is_gm", "is_owner_or_gm"]


def has_role(interaction: discord.Interaction[Any], role_id: int, carried: frozenset[int]) -> bool:
    """Whether the member who used a command has the role: one the interaction carried
    (``carried``), or one ``Member.get_role`` finds in the server's roles (cached servers
    only)."""
    if role_id in carried:
        return True
    user = interaction.user
    return isinstance(user, discord.Member) and user.get_role(role_id) is not None


def has_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server (or Administrator, which implies it) in the member's resolved permissions."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    user = interaction.user
    if isinstance(user, discord.Member):
        guild_permissions = user.guild_permissions
        return guild_permissions.manage_guild or guild_permissions.administrator
    return False


def is_gm(
    interaction: discord.Interaction[Any], gm_role_id: int | None, carried: frozenset[int]
) -> bool:
    """A GM: Manage Server, or a member of the server's configured GM role."""
    if interaction.guild_id is None:
        return False
    if has_manage_server(interaction):
        return True
    return gm_role_id is not None and has_role(interaction, gm_role_id, carried)


def is_owner_or_gm(
    interaction: discord.Interaction[Any],
    owner_id: int,
    gm_role_id: int | None,
    carried: frozenset[int],
) -> bool:
    """The character's owner, or a GM."""
    return interaction.user.id == owner_id or is_gm(interaction, gm_role_id, carried)
