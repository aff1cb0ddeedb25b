"""Servers, channels, roles and members of the fake Discord, with their payloads."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .ids import iso_now, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

# Permission bits (https://discord.com/developers/docs/topics/permissions).
PERMISSION_BITS = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_audit_log": 1 << 7,
    "view_channel": 1 << 10,
    "read_messages": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "change_nickname": 1 << 26,
    "manage_roles": 1 << 28,
    "manage_webhooks": 1 << 29,
    "use_application_commands": 1 << 31,
    "send_messages_in_threads": 1 << 38,
}
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = sum(
    PERMISSION_BITS[name]
    for name in (
        "create_instant_invite",
        "add_reactions",
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_external_emojis",
        "connect",
        "speak",
        "change_nickname",
        "use_application_commands",
        "send_messages_in_threads",
    )
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | PERMISSION_BITS["manage_messages"]


class _HasValue(Protocol):
    value: int


PermissionSpec = int | str | _HasValue | Iterable[str] | None


def permission_value(spec: PermissionSpec) -> int:
    """An int from an int, a discord.Permissions, a flag name or a list of flag names."""
    if spec is None:
        return 0
    if isinstance(spec, int):
        return spec
    if isinstance(spec, str):
        return PERMISSION_BITS[spec]
    if hasattr(spec, "value"):
        return int(spec.value)
    return sum(PERMISSION_BITS[name] for name in spec)


def member_fields(roles: list[str], joined_at: str) -> dict[str, Any]:
    """A guild member object's own fields (without ``user``), as Discord sends them."""
    return {
        "roles": roles,
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "nick": None,
        "avatar": None,
        "banner": None,
        "flags": 0,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }


def user_payload(user_id: str, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A user object."""
    payload: dict[str, Any] = {
        "id": user_id,
        "username": name.lower().replace(" ", "_")[:32] or "user",
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
    }
    if bot:
        payload["bot"] = True
    return payload


@dataclass
class FakeRole:
    """A role of a fake server."""

    id: str
    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False
    bot_id: str | None = None

    def payload(self) -> dict[str, Any]:
        """The role object."""
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id:
            data["tags"] = {"bot_id": self.bot_id}
        return data


@dataclass
class FakeChannel:
    """A text channel of a fake server."""

    id: str
    guild_id: str
    name: str
    position: int = 0
    type: int = 0
    #: The category of a channel or forum, the channel or forum of a thread.
    parent_id: str | None = None
    #: Discord's permission overwrites: ``{"id", "type" (0 role, 1 member), "allow", "deny"}``.
    overwrites: list[dict[str, Any]] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        """The channel object (as in GUILD_CREATE)."""
        return {
            "id": self.id,
            "type": self.type,
            "guild_id": self.guild_id,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [dict(overwrite) for overwrite in self.overwrites],
            "nsfw": False,
            "parent_id": self.parent_id,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        """`<#id>`."""
        return f"<#{self.id}>"


@dataclass
class FakeMember:
    """A member of a fake server; `locale` is the Discord language of the user's client."""

    id: str
    name: str
    guild: FakeGuild
    role_ids: list[str] = field(default_factory=list)
    locale: str = "en-US"
    joined_at: str = field(default_factory=iso_now)
    #: Where Discord posts its own notices (and a bot may greet); None when the server has none.
    system_channel_id: str | None = None
    bot: bool = False

    def user_payload(self) -> dict[str, Any]:
        """The user object."""
        return user_payload(self.id, self.name, bot=self.bot)

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        """The guild member object."""
        data = member_fields(list(self.role_ids), self.joined_at)
        if with_user:
            data["user"] = self.user_payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data

    @property
    def permissions(self) -> int:
        """Guild-level permissions as Discord computes them (owner and administrator get all)."""
        if self.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role_id in self.role_ids:
            role = self.guild.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        return ALL_PERMISSIONS if value & PERMISSION_BITS["administrator"] else value

    @property
    def mention(self) -> str:
        """`<@id>`."""
        return f"<@{self.id}>"

    def add_role(self, role: FakeRole) -> None:
        """Gives the member a role (and tells the bot with GUILD_MEMBER_UPDATE)."""
        if role.id not in self.role_ids:
            self.role_ids.append(role.id)
            self.guild.fake._member_changed(self)

    def remove_role(self, role: FakeRole) -> None:
        """Takes a role away (GUILD_MEMBER_UPDATE)."""
        if role.id in self.role_ids:
            self.role_ids.remove(role.id)
            self.guild.fake._member_changed(self)


@dataclass
class FakeGuild:
    """A fake server: `channel` (main text channel), `announcements`, `everyone`, members, roles."""

    fake: FakeDiscord
    id: str
    name: str
    locale: str
    owner_id: str
    roles: dict[str, FakeRole] = field(default_factory=dict)
    channels: dict[str, FakeChannel] = field(default_factory=dict)
    members: dict[str, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)
    #: Where Discord posts its own notices (and a bot may greet); None when the server has none.
    system_channel_id: str | None = None

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (its id is the guild id)."""
        return self.roles[self.id]

    @property
    def channel(self) -> FakeChannel:
        """The main text channel, where commands are used by default."""
        return next(c for c in self.channels.values() if c.name == "general")

    @property
    def announcements(self) -> FakeChannel:
        """A second text channel, for `/config channel`."""
        return next(c for c in self.channels.values() if c.name == "announcements")

    @property
    def owner(self) -> FakeMember:
        """The server's owner (has every permission)."""
        return self.members[self.owner_id]

    @property
    def bot_member(self) -> FakeMember:
        """The bot's own member."""
        return self.members[self.fake.bot_id]

    def text_channel(self, name: str) -> FakeChannel:
        """Adds a text channel (CHANNEL_CREATE)."""
        channel = FakeChannel(snowflake(), self.id, name, position=len(self.channels))
        self.channels[channel.id] = channel
        self.fake._dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def category(self, name: str) -> FakeChannel:
        """Adds a category (CHANNEL_CREATE, type 4)."""
        return self._new_channel(name, 4, None)

    def channel_in(
        self, category: FakeChannel | None, name: str, *, forum: bool = False
    ) -> FakeChannel:
        """Adds a text channel (or a forum, type 15) in ``category`` (CHANNEL_CREATE)."""
        return self._new_channel(name, 15 if forum else 0, category)

    def thread(self, parent: FakeChannel, name: str) -> FakeChannel:
        """Adds a public thread (or a forum post, in a forum) of ``parent`` (THREAD_CREATE)."""
        thread = FakeChannel(snowflake(), self.id, name, type=11, parent_id=parent.id)
        self.channels[thread.id] = thread
        payload = thread.payload()
        payload["thread_metadata"] = {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2026-01-01T00:00:00+00:00",
            "locked": False,
        }
        payload["owner_id"] = self.owner_id
        payload["member_count"] = 1
        payload["message_count"] = 0
        payload["newly_created"] = True
        self.fake._dispatch("THREAD_CREATE", payload)
        return thread

    def move_channel(self, channel: FakeChannel, category: FakeChannel | None) -> None:
        """Moves a channel to another category (CHANNEL_UPDATE)."""
        channel.parent_id = None if category is None else category.id
        self.fake._dispatch("CHANNEL_UPDATE", channel.payload())

    def delete_channel(self, channel: FakeChannel) -> None:
        """Deletes a channel, category or thread (CHANNEL_DELETE or THREAD_DELETE)."""
        self.channels.pop(channel.id, None)
        if channel.type in (10, 11, 12):
            self.fake._dispatch(
                "THREAD_DELETE",
                {
                    "id": channel.id,
                    "guild_id": self.id,
                    "parent_id": channel.parent_id,
                    "type": channel.type,
                },
            )
        else:
            self.fake._dispatch("CHANNEL_DELETE", channel.payload())

    def _new_channel(self, name: str, kind: int, category: FakeChannel | None) -> FakeChannel:
        channel = FakeChannel(
            snowflake(),
            self.id,
            name,
            position=len(self.channels),
            type=kind,
            parent_id=None if category is None else category.id,
        )
        self.channels[channel.id] = channel
        self.fake._dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def role(self, name: str, *, permissions: PermissionSpec = 0) -> FakeRole:
        """Adds a role (GUILD_ROLE_CREATE); `permissions`: int, Permissions or flag names."""
        role = FakeRole(snowflake(), name, permission_value(permissions), position=len(self.roles))
        self.roles[role.id] = role
        self.fake._dispatch("GUILD_ROLE_CREATE", {"guild_id": self.id, "role": role.payload()})
        return role

    def member(
        self,
        name: str,
        *,
        permissions: PermissionSpec = 0,
        roles: Iterable[FakeRole] = (),
        locale: str = "en-US",
    ) -> FakeMember:
        """Adds a member (GUILD_MEMBER_ADD when the bot has the members intent).

        `permissions` beyond @everyone's are given through a role of their own named
        "<name> permissions", so that discord.py's `guild_permissions` agrees with the
        interaction's `permissions`.
        """
        member = FakeMember(snowflake(), name, self, [r.id for r in roles], locale=locale)
        extra = permission_value(permissions)
        if extra:
            member.role_ids.append(self.role(f"{name} permissions", permissions=extra).id)
        self.members[member.id] = member
        self.fake._member_added(member)
        return member

    def payload(self, *, members: bool, joined: bool = False) -> dict[str, Any]:
        """The GUILD_CREATE payload (all members only with the members intent, as Discord does).

        ``joined``: the bot has just been added, so the payload has no ``unavailable`` (a server
        announced after READY carries ``unavailable: false``); discord.py tells
        ``on_guild_join`` from ``on_guild_available`` by it.
        """
        listed = [m for m in self.members.values() if members or m.id == self.fake.bot_id]
        payload = {
            "id": self.id,
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": self.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": self.system_channel_id,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "nsfw": False,
            "premium_progress_bar_enabled": False,
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in listed],
            "channels": [c.payload() for c in self.channels.values() if c.type not in (10, 11, 12)],
            "threads": [c.payload() for c in self.channels.values() if c.type in (10, 11, 12)],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "version": 0,
        }
        if joined:
            del payload["unavailable"]
        return payload
