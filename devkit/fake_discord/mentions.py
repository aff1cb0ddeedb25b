"""Who a message would ping, as Discord decides it from the content and ``allowed_mentions``
(https://discord.com/developers/docs/resources/message#allowed-mentions-object).

Only the content pings (never embeds). Without ``allowed_mentions`` Discord parses every
kind (users, roles, ``@everyone``/``@here``); with it, a kind pings only when it is in
``parse``, or, for users and roles, when its id is listed in ``users`` / ``roles``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Pings", "pings_of"]

_USER = re.compile(r"<@!?(\d{1,20})>")
_ROLE = re.compile(r"<@&(\d{1,20})>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(frozen=True)
class Pings:
    """The users and roles a message pings, and whether it pings ``@everyone``/``@here``."""

    users: tuple[str, ...] = field(default=())
    roles: tuple[str, ...] = field(default=())
    everyone: bool = False

    @property
    def anyone(self) -> bool:
        return bool(self.users or self.roles or self.everyone)


def _allowed_ids(allowed: dict[str, Any], kind: str) -> set[str] | None:
    """The ids of ``kind`` that may ping; None when every mentioned one may (``parse``)."""
    if kind in (allowed.get("parse") or []):
        return None
    return {str(value) for value in allowed.get(kind) or []}


def pings_of(payload: dict[str, Any]) -> Pings:
    """Who the message ``payload`` (a create or edit body) would ping."""
    content = str(payload.get("content") or "")
    allowed = payload.get("allowed_mentions")
    users = list(dict.fromkeys(_USER.findall(content)))
    roles = list(dict.fromkeys(_ROLE.findall(content)))
    everyone = bool(_EVERYONE.search(content))
    if not isinstance(allowed, dict):
        return Pings(tuple(users), tuple(roles), everyone)
    allowed_users = _allowed_ids(allowed, "users")
    allowed_roles = _allowed_ids(allowed, "roles")
    return Pings(
        users=tuple(u for u in users if allowed_users is None or u in allowed_users),
        roles=tuple(r for r in roles if allowed_roles is None or r in allowed_roles),
        everyone=everyone and "everyone" in (allowed.get("parse") or []),
    )
