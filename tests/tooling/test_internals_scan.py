"""The scan that keeps internals out of every reply (``tests/e2e/kit/internals.py``): it reads
each kind of payload the bot sends, and the fake Discord shows it every request."""

from __future__ import annotations

from typing import Any

import aiohttp

from devkit.fake_discord import REQUEST_WATCHERS, FakeDiscord, RecordedRequest
from tests.e2e.kit.internals import InternalsScan, leaks_in
from tests.e2e.kit.processes import running_fake


def request(method: str, path: str, body: Any) -> RecordedRequest:
    return RecordedRequest(method, f"/api/v10/{path}", {}, body)


def message(**fields: Any) -> dict[str, Any]:
    return {"content": "", "embeds": [], "components": [], **fields}


def test_each_internal_is_found_and_plain_words_are_not() -> None:
    for leaked in (
        "cannot fight (H4)",
        "(el dolor, H3)",
        "usa /rest con `hospital: True`",
        "Awake (true) or knocked out (false)",
        "Valores: `feminine`, `masculine`",
        "Tirada de Consciencia pendiente no → sí",
        "stabilized yes → no",
    ):
        assert leaks_in(leaked), leaked
    for plain in (
        "Amelia Ríos takes 1d6+1 = 5 damage",
        "4 + 1 = 5 vs 3",
        "the Consciousness roll is due again",
        "gender: femenino · she/her",
        "Nothing to correct: **Ana**'s sheet already had those values.",
        "#12 · <t:1700000000:R> · <@42>",
    ):
        assert leaks_in(plain) == [], plain


def test_the_scan_reads_every_kind_of_payload_the_bot_sends() -> None:
    fake = FakeDiscord()
    scan = InternalsScan()
    scan.watch(fake)
    embed = {
        "title": "t",
        "description": "(H3)",
        "fields": [{"name": "n", "value": "v"}],
        "footer": {"text": "yes → no"},
        "author": {"name": "H4"},
    }
    sent = [
        request("POST", "interactions/1/tok/callback", {"type": 4, "data": message(content="H4")}),
        request(
            "POST",
            "interactions/1/tok/callback",
            {"type": 8, "data": {"choices": [{"name": "feminine", "value": "f"}]}},
        ),
        request("POST", "webhooks/1/tok", message(embeds=[embed])),
        request(
            "PATCH",
            "webhooks/1/tok/messages/@original",
            message(components=[{"type": 1, "components": [{"type": 2, "label": "False"}]}]),
        ),
        request("POST", "channels/5/messages", message(content="`hospital: True`")),
        request("PATCH", "channels/5/messages/6", message(embeds=[{"description": "H2"}])),
        request(
            "PUT",
            "applications/1/commands",
            [
                {
                    "name": "x",
                    "description": "d",
                    "options": [
                        {
                            "name": "o",
                            "description": "d",
                            "description_localizations": {"es-ES": "sí (true)"},
                            "choices": [
                                {"name": "n", "value": 1, "name_localizations": {"es-ES": "M4"}}
                            ],
                        }
                    ],
                }
            ],
        ),
    ]
    for one in sent:
        scan(fake, one)
    found = sorted(finding.found for finding in scan.findings)
    assert found == sorted(
        ["H4", "feminine", "H3", "yes → no", "H4", "False", "True", "H2", "true", "M4"]
    )
    assert scan.payloads == len(sent)


def test_the_scan_leaves_other_applications_and_fakes_outside_the_tests_alone() -> None:
    salud, floor = FakeDiscord(), FakeDiscord(app_name="Floor")
    scan = InternalsScan()
    leak = request("POST", "channels/5/messages", message(content="H4"))
    scan(salud, leak)  # never seen during a test: a reliability test's, say
    scan.in_test = True
    scan(floor, leak)  # the benchmark's floor bot echoes what tests type
    assert scan.findings == []
    scan(salud, leak)  # seen during a test: watched from now on, between tests too
    scan.in_test = False
    scan(salud, leak)
    assert len(scan.findings) == 2


async def test_every_request_reaches_the_watchers_even_the_refused() -> None:
    seen: list[tuple[str, str]] = []

    def watcher(fake: FakeDiscord, recorded: RecordedRequest) -> None:
        seen.append((recorded.method, recorded.path))

    REQUEST_WATCHERS.append(watcher)
    try:
        async with running_fake() as fake, aiohttp.ClientSession() as http:
            headers = {"Authorization": "Bot fake-token"}
            async with http.get(f"{fake.api_url}/users/@me", headers=headers) as answer:
                assert answer.status == 200
            body = {"content": "x", "allowed_mentions": {"parse": []}}
            url = f"{fake.api_url}/channels/404/messages"
            async with http.post(url, json=body, headers=headers) as answer:
                assert answer.status == 404
    finally:
        REQUEST_WATCHERS.remove(watcher)
    assert seen == [("GET", "/api/v10/users/@me"), ("POST", "/api/v10/channels/404/messages")]
