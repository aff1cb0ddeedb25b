"""Sync the slash commands with Discord only when they changed (Discord rate-limits syncs).

The fingerprint covers what Discord would store: every global command's translated payload
(names, descriptions in both languages, options, choices, flags), as sorted JSON.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from discord import app_commands

__all__ = ["SYNC_HASH_KEY", "SYNC_TURN_KEY", "command_hash", "translated_payloads"]

#: Key of the ``meta`` table row that holds the hash of the last synced commands.
SYNC_HASH_KEY = "command_sync_hash"
#: Key of the row a process writes before it syncs: its lock makes the processes that start
#: together take turns, so that one syncs and the others find its hash.
SYNC_TURN_KEY = "command_sync_turn"


async def translated_payloads(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The payloads ``tree.sync()`` would send, in a stable order."""
    translator = tree.translator
    payloads: list[dict[str, Any]] = []
    for command in tree.get_commands():
        if translator is not None:
            payload = await command.get_translated_payload(tree, translator)
        else:
            payload = command.to_dict(tree)
        payloads.append(dict(payload))
    payloads.sort(key=lambda item: (int(item.get("type", 1)), str(item.get("name", ""))))
    return payloads


async def command_hash(tree: app_commands.CommandTree[Any], application_id: int | None) -> str:
    """SHA-256 of the sorted JSON of every global command, for this application.

    The application id is part of it: a database moved to another bot must sync again.
    """
    payloads = await translated_payloads(tree)
    document = {"application_id": application_id, "commands": payloads}
    encoded = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()
