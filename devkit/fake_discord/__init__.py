"""A fake Discord (REST + gateway on 127.0.0.1) that the real bot process logs in to.

Used by tests/e2e (in-process, see tests/e2e/conftest.py) and by bench/ (`python -m
devkit.fake_discord` runs it standalone and prints its port).
"""

from __future__ import annotations

from .models import FakeChannel, FakeGuild, FakeMember, FakeRole
from .replies import Reply, embed_text, message_text
from .server import REQUEST_WATCHERS, FakeDiscord, Raw, RecordedRequest, RequestWatcher
from .validation import Violation

__all__ = [
    "REQUEST_WATCHERS",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "Raw",
    "RecordedRequest",
    "Reply",
    "RequestWatcher",
    "Violation",
    "embed_text",
    "message_text",
]
