"""Health lost and won (COMMANDS.md ``/hurt``, ``/firstaid``, ``/rest``): each command's
change, one rule (``rules``) applied in one transaction with its history entry, and the
public reply it makes (``bot.features.reply``); a wound in ``hurt``, care in ``care``."""
