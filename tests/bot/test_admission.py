"""The gate of the pacer's requests (``bot.discord_rest.admission``): requests go in the order
they came, urgent first, and however late their answers come, no second can hold more of
their arrivals than the rate's worth (issue 24.10)."""

from __future__ import annotations

import asyncio
import random
import time

from bot.discord_rest.admission import URGENT_TURNS, Admission
from bot.discord_rest.invalid_requests import InvalidRequests


async def admit(gate: Admission, admitted: list[str], name: str, *, urgent: bool = False) -> None:
    """One request through ``gate``: its name noted when it is admitted."""
    async with gate.turn(urgent=urgent):
        admitted.append(name)


async def test_requests_are_admitted_in_the_order_they_came() -> None:
    gate = Admission(rate=50.0, burst=1.0, invalid=InvalidRequests())
    admitted: list[str] = []
    tasks = []
    for number in range(30):
        tasks.append(asyncio.create_task(admit(gate, admitted, str(number))))
        await asyncio.sleep(0)  # each one queued before the next
    await asyncio.gather(*tasks)
    assert admitted == [str(number) for number in range(30)]


async def test_urgent_requests_go_first_seven_to_one() -> None:
    gate = Admission(rate=100.0, burst=1.0, invalid=InvalidRequests())
    admitted: list[str] = []
    tasks = [asyncio.create_task(admit(gate, admitted, f"s{n}")) for n in range(4)]
    tasks += [asyncio.create_task(admit(gate, admitted, f"t{n}", urgent=True)) for n in range(16)]
    await asyncio.gather(*tasks)
    expected = ["t"] * URGENT_TURNS + ["s"] + ["t"] * URGENT_TURNS + ["s"]
    assert [name[0] for name in admitted[:16]] == expected, admitted
    assert [name for name in admitted if name[0] == "s"] == ["s0", "s1", "s2", "s3"]


async def test_no_second_holds_more_arrivals_than_the_rate_however_late_the_answers() -> None:
    """A request arrives somewhere between when it went and when its answer came: for every
    moment, the requests that may have arrived in the second before it are at most the rate."""
    rate = 20.0
    gate = Admission(rate=rate, burst=rate, invalid=InvalidRequests())
    spans: list[tuple[float, float]] = []
    latencies = random.Random(24).choices([0.0, 0.05, 0.3, 0.9], k=30)

    async def request(latency: float) -> None:
        async with gate.turn(urgent=False):
            went = time.monotonic()
            await asyncio.sleep(latency)
        spans.append((went, time.monotonic()))

    await asyncio.gather(*(request(latency) for latency in latencies))
    moments = [answered for _, answered in spans] + [went + 1.0 for went, _ in spans]
    for moment in moments:
        may_have_arrived = sum(
            1 for went, answered in spans if went <= moment and answered > moment - 1.0
        )
        assert may_have_arrived <= rate, (moment, may_have_arrived)


async def test_a_request_cancelled_while_it_waits_leaves_its_turn_to_the_next() -> None:
    gate = Admission(rate=20.0, burst=1.0, invalid=InvalidRequests())
    admitted: list[str] = []
    first, second, third = (asyncio.create_task(admit(gate, admitted, n)) for n in "012")
    await asyncio.sleep(0)
    second.cancel()
    await asyncio.gather(first, third)
    assert admitted == ["0", "2"]
    gate.close()
