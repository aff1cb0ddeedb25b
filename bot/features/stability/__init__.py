"""Stability, Salud's second track (RULES.md M; COMMANDS.md "Stability"): the tests a GM
calls and the players roll with buttons (``buttons``), the call itself (``call``), the
``loss`` option's example incidents (``incidents``)."""
