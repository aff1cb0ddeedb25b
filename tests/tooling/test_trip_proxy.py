"""``bench/trip_proxy.py`` counts a client's round trips on PostgreSQL's wire: a ``Sync`` or a
simple ``Query`` is one, whatever else the client batched before it, however the stream is
cut into reads; the start-up packets (SSL request, start-up message) are none."""

from __future__ import annotations

import struct

from bench.trip_proxy import FrontendCounter


def message(kind: bytes, body: bytes = b"") -> bytes:
    return kind + struct.pack("!i", 4 + len(body)) + body


def untyped(code: int, body: bytes = b"") -> bytes:
    return struct.pack("!ii", 8 + len(body), code) + body


STREAM = (
    untyped(80877103)  # SSLRequest (the server answers N)
    + untyped(196608, b"user\0salud\0database\0salud\0\0")  # start-up message, protocol 3.0
    + message(b"Q", b"BEGIN; SELECT 1 FOR UPDATE\0")  # one trip
    + message(b"P", b"\0SELECT $1\0\0\0")
    + message(b"B", b"\0\0\0\0\0\x01\0\0\0\x011\0\0")
    + message(b"E", b"\0\0\0\0\0")
    + message(b"S")  # the batch's end: one trip
    + message(b"X")  # Terminate
)


def test_syncs_and_queries_are_the_trips_however_the_stream_is_read() -> None:
    for size in (1, 3, 7, len(STREAM)):
        counter = FrontendCounter()
        for at in range(0, len(STREAM), size):
            counter.feed(STREAM[at : at + size])
        assert counter.trips == 2, size


def test_each_trip_s_statements_are_told() -> None:
    told: list[list[str]] = []
    counter = FrontendCounter(told.append)
    counter.feed(STREAM)
    assert told == [["BEGIN; SELECT 1 FOR UPDATE"], ["SELECT $1"]]
