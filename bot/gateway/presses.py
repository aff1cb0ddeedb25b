"""Whether a press will reach one of Salud's buttons, so that every other press is answered.

discord.py hands a press to a button kind (a ``DynamicItem``) only when the pressed custom id
matches the kind's template whole and the id is on the message pressed; any other press it
drops without a word (``ViewStore.dispatch_view`` and ``schedule_dynamic_item_call``, 2.7).
Discord sends only the ids the bot posted, but a forged client, an id of an older version
or a Discord bug sends any text: the intake asks ``reaches_a_button`` first and answers the
others with the stale button's sentence (issue 24). The templates are the kinds' own
(``bot.interaction.buttons.CustomId``): what they refuse (a number past SQLite's integers,
a part too many) is never parsed.
"""

from __future__ import annotations

from typing import Any

import discord

__all__ = ["reaches_a_button"]


def _carries(components: Any, component_type: int, custom_id: str) -> bool:
    """Whether a message's components (rows, containers, accessories) hold that component."""
    if not isinstance(components, list):
        return False
    for component in components:
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and component.get("type") == component_type:
            return True
        accessory = component.get("accessory")
        inner = [*(component.get("components") or []), *([accessory] if accessory else [])]
        if inner and _carries(inner, component_type, custom_id):
            return True
    return False


def reaches_a_button(state: Any, data: Any) -> bool:
    """Whether discord.py will run a button's callback for the press ``data``
    (``INTERACTION_CREATE`` of type 3) on the connection ``state``."""
    inner = data.get("data") if isinstance(data, dict) else None
    if not isinstance(inner, dict):
        return False
    custom_id = inner.get("custom_id")
    component_type = inner.get("component_type")
    if not isinstance(custom_id, str) or type(component_type) is not int:
        return False
    message = data.get("message")
    if not isinstance(message, dict) or not _carries(
        message.get("components"), component_type, custom_id
    ):
        return False
    store: discord.ui.view.ViewStore = state._view_store
    return any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items)
