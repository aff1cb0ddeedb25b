"""Development-only kit shared by tests/, bench/ and tools/ (never installed, never in the image).

- ``devkit.fake_discord``: a fake Discord (REST + gateway on 127.0.0.1) the real bot logs in to.
- ``devkit.harness``: the bot as a real subprocess (``python -m bot``) pointed at that fake.
- ``devkit/sitecustomize/``: what points discord.py at the fake, inside the bot process only.

It lives outside tests/ so that bench/ and tools/ use it without importing the test suite.
"""
