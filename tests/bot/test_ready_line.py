"""The start-up line a self-hoster looks for: who, in how many servers, and the invite link."""

from __future__ import annotations

from bot.app import invite_url, ready_line


def test_ready_line_counts_servers_in_words_and_gives_the_invite() -> None:
    assert ready_line("Salud#1234", 3, 42) == (
        f"Ready as Salud#1234 in 3 servers. Invite it to a server: {invite_url(42)}"
    )
    assert ready_line("Salud#1234", 1, 42).startswith("Ready as Salud#1234 in 1 server. ")
    assert ready_line("Salud", 0, None) == "Ready as Salud in 0 servers."
