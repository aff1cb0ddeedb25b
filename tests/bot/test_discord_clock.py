"""``DiscordClock``: an interaction's wait from its snowflake, whatever the wall clock's offset
(issue 24 point 13)."""

from __future__ import annotations

import pytest

from bot.gateway.discord_clock import DISCORD_EPOCH_MS, FORGET_PER_SECOND, DiscordClock


class Clocks:
    """A wall clock ``offset`` seconds off Discord's, and a monotonic one, both set by hand."""

    def __init__(self, offset: float) -> None:
        self.discord = 1_800_000_000.0
        self.offset = offset
        self.monotonic = 100.0

    def wall(self) -> float:
        return self.discord + self.offset

    def tick(self, seconds: float) -> None:
        self.discord += seconds
        self.monotonic += seconds

    def snowflake(self, seconds_ago: float = 0.0) -> str:
        created_ms = int((self.discord - seconds_ago) * 1000) - DISCORD_EPOCH_MS
        return str(created_ms << 22 | 7)


def clock_of(clocks: Clocks) -> DiscordClock:
    return DiscordClock(wall=clocks.wall, monotonic=lambda: clocks.monotonic)


@pytest.mark.parametrize("offset", [0.0, 10.0, -10.0, 3600.0])
def test_a_fresh_interaction_waited_nothing_whatever_the_offset(offset: float) -> None:
    clocks = Clocks(offset)
    clock = clock_of(clocks)
    for _ in range(5):
        assert clock.waited(clocks.snowflake(0.05)) == pytest.approx(0.0, abs=0.06)
        clocks.tick(1.0)


@pytest.mark.parametrize("offset", [0.0, 10.0, -10.0])
def test_what_waited_in_the_socket_during_a_freeze_shows(offset: float) -> None:
    clocks = Clocks(offset)
    clock = clock_of(clocks)
    assert clock.waited(clocks.snowflake()) == 0.0
    clocks.tick(5.0)  # frozen: the interactions of these 5 s wait unread
    waits = [clock.waited(clocks.snowflake(seconds_ago)) for seconds_ago in (4.5, 2.5, 0.5)]
    assert waits == pytest.approx([4.5, 2.5, 0.5], abs=0.06)


def test_a_clock_stepped_back_is_believed_at_once() -> None:
    clocks = Clocks(0.0)
    clock = clock_of(clocks)
    clock.waited(clocks.snowflake())
    clocks.offset = -30.0
    assert clock.waited(clocks.snowflake()) == 0.0
    clocks.tick(5.0)
    assert clock.waited(clocks.snowflake(3.0)) == pytest.approx(3.0, abs=0.06)


def test_a_clock_stepped_forward_is_forgotten_slowly() -> None:
    """Until then interactions look older than they are: deferred first, never stored
    unanswered."""
    clocks = Clocks(0.0)
    clock = clock_of(clocks)
    clock.waited(clocks.snowflake())
    clocks.offset = 1.0
    assert clock.waited(clocks.snowflake()) == pytest.approx(1.0, abs=0.01)
    clocks.tick(1 / FORGET_PER_SECOND)
    assert clock.waited(clocks.snowflake()) == pytest.approx(0.0, abs=0.01)


@pytest.mark.parametrize("odd", [None, "", "abc", "12a", "١٢٣", "9" * 30, -5, True, 1.5])
def test_an_id_that_is_no_snowflake_waited_nothing(odd: object) -> None:
    clocks = Clocks(0.0)
    clock = clock_of(clocks)
    assert clock.waited(odd) == 0.0
