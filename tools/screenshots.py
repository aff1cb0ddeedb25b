"""``make screenshots``: pictures of real replies for the README (not part of ``make test``).

Runs a short scripted session of a Spanish table — three investigators, a wound, a
Consciousness roll falling due, First Aid, a death, ``/scene status``, ``/history``, a
Stability test called for two, a private NPC told in words and the numbers its GM sees;
then, in a second server, two tables' live trackers — with
the real bot (``python -m bot``) against the fake Discord of ``devkit/fake_discord`` on
127.0.0.1, keeps the payloads the bot really sent, draws each as HTML in the style of
Discord's dark theme at a phone's width, and photographs it with headless Chromium (Debian's
``chromium``, installed with apt-get when missing). Writes ``docs/images/*.png``.
"""

from __future__ import annotations

import asyncio
import copy
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.fake_discord.replies import Reply
from devkit.harness import PROJECT_ROOT, BotProcess

IMAGES = PROJECT_ROOT / "docs" / "images"
#: A phone's width in CSS pixels; pictures are taken at twice that for sharpness.
PHONE_WIDTH = 390
SCALE = 2
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


# --- Chromium ---------------------------------------------------------------------------------
EMOJI_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")


def chromium() -> str:
    """The Chromium binary (and the emoji font), installed from Debian's packages when
    missing."""
    found = shutil.which("chromium")
    if found and EMOJI_FONT.exists():
        return found
    print("chromium or its emoji font is missing: installing with apt-get", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        [
            "apt-get",
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            "chromium",
            "fonts-noto-color-emoji",
        ],
        check=True,
        env=env,
    )
    found = shutil.which("chromium")
    if not found:
        raise SystemExit("chromium is still missing after apt-get install")
    return found


def _run_chromium(binary: str, profile: Path, *args: str) -> str:
    result = subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def photograph(binary: str, page: Path, target: Path) -> None:
    """``page`` as a PNG of exactly its height, at phone width."""
    with tempfile.TemporaryDirectory(prefix="salud-chromium-") as profile:
        dom = _run_chromium(
            binary,
            Path(profile),
            f"--window-size={PHONE_WIDTH},2000",
            "--virtual-time-budget=2000",
            "--dump-dom",
            page.as_uri(),
        )
        found = re.search(r'data-height="(\d+)"', dom)
        height = int(found[1]) if found else 1200
    with tempfile.TemporaryDirectory(prefix="salud-chromium-") as profile:
        _run_chromium(
            binary,
            Path(profile),
            f"--window-size={PHONE_WIDTH},{height}",
            f"--force-device-scale-factor={SCALE}",
            "--hide-scrollbars",
            f"--screenshot={target}",
            page.as_uri(),
        )


# --- Discord's look ---------------------------------------------------------------------------
CSS = """
body { margin: 0; background: #313338; color: #dbdee1; width: 390px;
  font: 15px/1.375 "Noto Sans", "DejaVu Sans", sans-serif; }
.msg { display: flex; padding: 12px 12px 14px 10px; }
.avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; flex: none;
  color: white; font-weight: 700; display: flex; align-items: center; justify-content: center;
  margin-right: 12px; font-size: 18px; }
.body { min-width: 0; flex: 1; }
.head { margin-bottom: 2px; }
.name { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: white; font-size: 10px; font-weight: 600; border-radius: 3px;
  padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 6px; }
.content { white-space: pre-wrap; word-wrap: break-word; }
.embed { background: #2b2d31; border-left: 4px solid #1e1f22; border-radius: 4px;
  padding: 8px 12px 12px 12px; margin-top: 6px; max-width: 100%; box-sizing: border-box; }
.embed .title { color: #f2f3f5; font-weight: 600; font-size: 15px; margin-top: 4px; }
.embed .description { font-size: 14px; margin-top: 6px; white-space: pre-wrap; }
.fields { display: flex; flex-wrap: wrap; column-gap: 8px; }
.field { margin-top: 8px; flex: 1 1 100%; min-width: 0; font-size: 14px; }
.field.inline { flex: 1 1 28%; }
.field .fname { color: #f2f3f5; font-weight: 600; margin-bottom: 2px; }
.field .fvalue { white-space: pre-wrap; word-wrap: break-word; }
.footer { color: #b5bac1; font-size: 12px; margin-top: 8px; white-space: pre-wrap; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; }
code { background: #1e1f22; border-radius: 3px; padding: 0 3px; font-size: 13px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { border-radius: 3px; padding: 6px 12px; color: white; font-size: 14px;
  font-weight: 500; background: #4e5058; }
.button.primary { background: #5865f2; }
.button.danger { background: #da373c; }
.button.disabled { opacity: .5; }
.channel { color: #f2f3f5; font-weight: 600; font-size: 14px; padding: 10px 12px 6px 12px;
  background: #2b2d31; border-bottom: 1px solid #1e1f22; }
"""


def markdown(text: str, names: Mapping[str, str]) -> str:
    """The little Markdown Salud uses, as Discord shows it; mentions by name."""
    shown = html.escape(text, quote=False)
    shown = re.sub(r"\\([\\*_~`>|])", lambda m: f"&#{ord(m[1])};", shown)
    shown = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(names.get(m[1], "Jugador"))}</span>',
        shown,
    )
    shown = re.sub(r"&lt;t:\d+:[tT]&gt;", "21:34", shown)
    shown = re.sub(r"&lt;t:\d+(?::[a-zA-Z])?&gt;", "hace un momento", shown)
    shown = re.sub(r"`([^`]+)`", r"<code>\1</code>", shown)
    shown = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", shown)
    shown = re.sub(r"~~(.+?)~~", r"<s>\1</s>", shown)
    shown = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", shown)
    return shown


def _embed(embed: Mapping[str, Any], names: Mapping[str, str]) -> str:
    colour = f"#{int(embed.get('color') or 0x1E1F22):06x}"
    parts = [f'<div class="embed" style="border-left-color: {colour}">']
    if embed.get("title"):
        parts.append(f'<div class="title">{markdown(str(embed["title"]), names)}</div>')
    if embed.get("description"):
        parts.append(f'<div class="description">{markdown(embed["description"], names)}</div>')
    fields: Sequence[Mapping[str, Any]] = embed.get("fields") or []
    if fields:
        parts.append('<div class="fields">')
        for item in fields:
            inline = " inline" if item.get("inline") else ""
            parts.append(
                f'<div class="field{inline}"><div class="fname">'
                f"{markdown(str(item['name']), names)}</div>"
                f'<div class="fvalue">{markdown(str(item["value"]), names)}</div></div>'
            )
        parts.append("</div>")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        parts.append(f'<div class="footer">{html.escape(footer)}</div>')
    parts.append("</div>")
    return "".join(parts)


def _buttons(components: Sequence[Mapping[str, Any]]) -> str:
    styles = {1: "primary", 2: "", 4: "danger"}
    rows = []
    for row in components:
        buttons = []
        for button in row.get("components") or []:
            style = styles.get(int(button.get("style") or 2), "")
            if button.get("disabled"):
                style += " disabled"
            buttons.append(f'<span class="button {style}">{html.escape(button["label"])}</span>')
        rows.append(f'<div class="buttons">{"".join(buttons)}</div>')
    return "".join(rows)


def message_div(message: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One message of the bot, as Discord's dark theme draws it: the ``.msg`` block."""
    content = message.get("content") or ""
    body = [
        '<div class="head"><span class="name">Salud</span><span class="tag">APP</span>'
        '<span class="time">hoy a las 21:34</span></div>'
    ]
    if content:
        body.append(f'<div class="content">{markdown(content, names)}</div>')
    body += [_embed(embed, names) for embed in message.get("embeds") or []]
    body.append(_buttons(message.get("components") or []))
    return (
        f'<div class="msg"><div class="avatar">S</div><div class="body">{"".join(body)}</div></div>'
    )


def page_html(blocks: str) -> str:
    """A page of Discord's dark theme at a phone's width around ``blocks``; it tells its
    height in ``data-height`` for the photograph."""
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f"<style>{CSS}</style></head><body>{blocks}"
        "<script>document.body.setAttribute('data-height',"
        " Math.ceil(document.body.getBoundingClientRect().height));</script>"
        "</body></html>"
    )


def message_html(message: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One message of the bot, as Discord's dark theme draws it on a phone."""
    return page_html(message_div(message, names))


def channels_html(
    messages: Sequence[tuple[str, Mapping[str, Any]]], names: Mapping[str, str]
) -> str:
    """Messages of several channels one above the other, each under its channel's name."""
    return page_html(
        "".join(
            f'<div class="channel"># {html.escape(channel)}</div>{message_div(message, names)}'
            for channel, message in messages
        )
    )


# --- the session ------------------------------------------------------------------------------
async def _ok(reply: Reply) -> Reply:
    assert not reply.ephemeral, reply.text
    return reply


class _Kept(dict[str, Reply]):
    """The replies to photograph, by picture name, and in ``sent`` each one's message as the
    bot sent it (a later command of the session may edit it: disable its buttons)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[str, dict[str, Any]] = {}

    def __setitem__(self, name: str, reply: Reply) -> None:
        super().__setitem__(name, reply)
        assert reply.message is not None, name
        self.sent[name] = copy.deepcopy(reply.message)


async def session(fake: FakeDiscord, guild: FakeGuild) -> dict[str, dict[str, Any]]:
    """The scripted session; the messages to photograph as they were sent, by picture name."""
    gm = guild.member("Directora", permissions=["manage_guild"], locale="es-ES")
    lucia = guild.member("Lucía", locale="es-ES")
    for name, health, first_aid, gender, player in (
        ("Amelia Ríos", 9, 0, "feminine", lucia),
        ("Jack Malone", 6, 0, "masculine", gm),
        ("Padre Tomás", 8, 4, "masculine", gm),
    ):
        options: dict[str, Any] = {"name": name, "health": health, "first_aid": first_aid}
        options["gender"] = gender
        if player is not gm:
            options["player"] = player
        await _ok(await fake.slash(guild, gm, "character create", options))
    shots = _Kept()
    shots["change"] = await _ok(
        await fake.slash(
            guild,
            gm,
            "hurt",
            {"character": "Amelia Ríos", "amount": "1d6+1", "reason": "la garra de un profundo"},
        )
    )
    # From wherever the dice left her to -3: a Consciousness roll falls due (its buttons).
    first_line = shots["change"].embed["fields"][0]["value"].split("\n")[0]
    now = int(first_line.split(" → ")[1].split(" / ")[0])
    shots["consciousness"] = await _ok(
        await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": str(now + 3)})
    )
    await _ok(
        await fake.slash(
            guild, gm, "firstaid", {"medic": "Padre Tomás", "patient": "Amelia Ríos", "points": 1}
        )
    )
    await _ok(await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "9"}))
    shots["death"] = await _ok(
        await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "2d6+6"})
    )
    # A blow to three: one embed, a line each, the blow said once in the title.
    await _ok(await fake.slash(guild, gm, "character create", {"name": "Olga", "health": 7}))
    shots["hurt-three"] = await _ok(
        await fake.slash(
            guild,
            gm,
            "hurt",
            {
                "character": "Amelia Ríos",
                "character2": "Padre Tomás",
                "character3": "Olga",
                "amount": "1d6",
                "reason": "la explosión del laboratorio",
            },
        )
    )
    await _ok(
        await fake.slash(
            guild,
            gm,
            "ability set",
            {"character": "Padre Tomás", "ability": "Escaramuza", "rating": 4},
        )
    )
    shots["check"] = await _ok(
        await fake.slash(
            guild, gm, "check", {"character": "Padre Tomás", "ability": "Escaramuza", "spend": 1}
        )
    )
    shots["scene-status"] = await _ok(await fake.slash(guild, lucia, "scene status"))
    shots["history"] = await _ok(await fake.slash(guild, lucia, "history"))
    # The table tracks Stability too: a test for two, with the buttons each player rolls.
    for name, rating in (("Amelia Ríos", 8), ("Padre Tomás", 7)):
        await _ok(
            await fake.slash(
                guild, gm, "character set", {"character": name, "max_stability": rating}
            )
        )
    shots["stability"] = await _ok(
        await fake.slash(
            guild,
            gm,
            "stability test",
            {
                "loss": 4,
                "character": "Amelia Ríos",
                "character2": "Padre Tomás",
                "reason": "el shoggoth del sótano",
            },
        )
    )
    # The Keeper's screen: a private NPC told to the table in words, and the numbers a GM
    # gets from its Numbers button (an ephemeral answer: only the GM sees it).
    npc = {"name": "El profundo", "health": 8, "gender": "masculine", "numbers": "private"}
    await _ok(await fake.slash(guild, gm, "character create", npc))
    shots["private"] = await _ok(
        await fake.slash(
            guild,
            gm,
            "hurt",
            {"character": "El profundo", "amount": "11", "reason": "la escopeta de Amelia"},
        )
    )
    numbers = next(b for b in shots["private"].buttons if b.get("label") == "Ver números")
    answer = await fake.click(guild, gm, shots["private"], numbers["custom_id"])
    assert answer.ephemeral and "El profundo" in answer.text, answer.text
    shots["private-numbers"] = answer
    return shots.sent


async def tables_session(fake: FakeDiscord, guild: FakeGuild) -> list[tuple[str, dict[str, Any]]]:
    """Two tables in one server, each with its live tracker and a change at each: the
    trackers as they stand after it, with their channels' names."""
    gm = guild.member("Directora", permissions=["manage_guild"], locale="es-ES")
    lucia = guild.member("Lucía", locale="es-ES")
    monday = guild.category("Campaña del lunes")
    monday_game = guild.channel_in(monday, "partida-lunes")
    for name, health, gender, player in (
        ("Amelia Ríos", 9, "feminine", lucia),
        ("Jack Malone", 6, "masculine", gm),
    ):
        options: dict[str, Any] = {"name": name, "health": health, "gender": gender}
        if player is not gm:
            options["player"] = player
        await _ok(await fake.slash(guild, gm, "character create", options))
    created = await fake.slash(guild, gm, "table create", {"name": "Miskatonic", "place": monday})
    assert "Miskatonic" in created.text, created.text  # the GM's own (ephemeral) answer
    for name, health, gender in (("Amelia Ríos", 7, "feminine"), ("Padre Tomás", 8, "masculine")):
        await _ok(
            await fake.slash(
                guild,
                gm,
                "character create",
                {"name": name, "health": health, "gender": gender},
                channel=monday_game,
            )
        )
    main_tracker = await _ok(await fake.slash(guild, gm, "scene tracker", {}))
    other_tracker = await _ok(await fake.slash(guild, gm, "scene tracker", {}, channel=monday_game))
    changes = (
        await _ok(await fake.slash(guild, gm, "hurt", {"character": "Jack Malone", "amount": "2"})),
        await _ok(
            await fake.slash(
                guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "3"}, channel=monday_game
            )
        ),
    )
    assert all(change.embeds for change in changes)
    shown = []
    for channel, tracker, now in (
        ("general", main_tracker, "4 / 6"),
        ("partida-lunes", other_tracker, "4 / 7"),
    ):
        shown.append((channel, await _tracker_showing(fake, tracker, now)))
    return shown


async def _tracker_showing(fake: FakeDiscord, tracker: Reply, text: str) -> dict[str, Any]:
    """The tracker's message once the bot's edit after the change shows ``text``."""
    for _ in range(100):
        message = fake.message(str(tracker.message_id))
        if message is not None and text in str(message.get("embeds")):
            return message
        await asyncio.sleep(0.1)
    raise AssertionError(
        f"the tracker never showed {text!r}: {fake.message(str(tracker.message_id))}"
    )


async def main() -> None:
    binary = chromium()
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="salud-screenshots-") as folder:
        work = Path(folder)
        fake = FakeDiscord(app_name="Salud")
        await fake.start()
        bot = BotProcess(fake, database_path=work / "bot.sqlite3", log_path=work / "bot.log")
        try:
            await bot.start()
            guild = await fake.create_guild(locale="es-ES", name="El Rastro de Cthulhu")
            shots = await session(fake, guild)
            names = {member.id: member.name for member in guild.members.values()}
            for name, message in shots.items():
                page = work / f"{name}.html"
                page.write_text(message_html(message, names), encoding="utf-8")
                photograph(binary, page, IMAGES / f"{name}.png")
                print(f"wrote {IMAGES / f'{name}.png'}")
            # Two tables in one server, in a server of their own: their trackers together.
            other = await fake.create_guild(locale="es-ES", name="Noches de Arkham")
            trackers = await tables_session(fake, other)
            names = {member.id: member.name for member in other.members.values()}
            page = work / "tables.html"
            page.write_text(channels_html(trackers, names), encoding="utf-8")
            photograph(binary, page, IMAGES / "tables.png")
            print(f"wrote {IMAGES / 'tables.png'}")
        finally:
            await bot.stop()
            await fake.stop()


if __name__ == "__main__":
    asyncio.run(main())
