"""What an ``/undo`` would revert: its words are ``bot.render.undo``'s; its names are here too,
where the undo's feature and its tests have long found them."""

from __future__ import annotations

from bot.render.undo import preview_embed, reversal_line, reversal_lines

__all__ = ["preview_embed", "reversal_line", "reversal_lines"]
