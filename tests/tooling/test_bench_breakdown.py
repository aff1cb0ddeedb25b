"""The benchmark's breakdown of the CPU per reply (bench/breakdown.py): py-spy's samples put in
parts, waits inside C code left out."""

from __future__ import annotations

from bench.breakdown import PARTS, Breakdown, parse_samples

SQLITE, OPTION, STORAGE, _RULES, RENDERING, SENDING, REST = (part for part, _ in PARTS)

RAW = "\n".join(
    [
        # the loop waiting in epoll, aiosqlite's thread waiting on its queue: not counted
        "thread (1): MainThread;run (asyncio/base_events.py:607);"
        "EpollSelector.select (selectors.py:468) 500",
        "thread (2): Thread-1 (_connection_worker_thread);Thread.run (threading.py:982);"
        "_connection_worker_thread (aiosqlite/core.py:59) 400",
        # SQLite at work in its thread
        "thread (2): Thread-1 (_connection_worker_thread);Thread.run (threading.py:982);"
        "_connection_worker_thread (aiosqlite/core.py:62);"
        "Batch.__call__ (bot/storage/sqlite/pipeline.py:73) 30",
        # the option's read goes to the option, though it runs storage code
        "thread (1): MainThread;"
        "CharacterTransformer.transform (bot/features/characters/option.py:94);"
        "resolve_character (bot/features/characters/option.py:44);"
        "Reader.fetch_all (bot/storage/sqlite/reader.py:97) 10",
        "thread (1): MainThread;HealthCog.hurt (cogs/health.py:180);"
        "Transaction.record (bot/storage/sqlite/history_writes.py:90) 20",
        "thread (1): MainThread;HealthCog.hurt (cogs/health.py:186);"
        "change_embeds (bot/render/change.py:84) 5",
        "thread (1): MainThread;StreamWriter._writelines (aiohttp/http_writer.py:116) 15",
        "thread (1): MainThread;DiscordWebSocket.received_message (discord/gateway.py:700) 20",
        "malformed line",
    ]
)


def test_samples_go_to_their_part_and_waits_are_left_out() -> None:
    samples = parse_samples(RAW)
    assert samples == {SQLITE: 30, OPTION: 10, STORAGE: 20, RENDERING: 5, SENDING: 15, REST: 20}


def test_each_part_gets_its_share_of_the_measured_cpu() -> None:
    breakdown = Breakdown("hurt", 0.001, parse_samples(RAW))  # 1 ms per reply
    assert breakdown.total == 100
    assert breakdown.ms(SQLITE) == 0.3
    assert round(sum(breakdown.ms(part) for part, _ in PARTS), 9) == 1.0
    assert Breakdown("hurt", 0.001).ms(SQLITE) == 0.0
