"""Start-up settings: a first-time server owner gets a message that says what to write in .env."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.settings import DEFAULT_DATABASE_PATH, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` with exactly ``env`` (plus what Python needs to start)."""
    base = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_exits_2_saying_what_to_put_in_env(tmp_path: Path) -> None:
    result = run_bot(tmp_path, {})
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Copy .env.example to .env and set DISCORD_TOKEN=" in result.stderr
    assert "https://discord.com/developers/applications" in result.stderr
    assert "Traceback" not in result.stderr


def test_unwritable_database_path_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    result = run_bot(
        tmp_path,
        {"DISCORD_TOKEN": "secret-token-value", "DATABASE_PATH": str(blocker / "bot.sqlite3")},
    )
    assert result.returncode == 2
    assert "DATABASE_PATH=" in result.stderr
    assert "secret-token-value" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_dotenv_in_the_working_folder_is_read_without_overriding_the_environment(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN=from-dotenv\nDATABASE_PATH={tmp_path / 'ok.sqlite3'}\n"
    )
    # The real environment wins: its DATABASE_PATH is unusable, so the start stops at it,
    # which shows the token came from .env (no "DISCORD_TOKEN is not set").
    result = run_bot(tmp_path, {"DATABASE_PATH": str(blocker / "db.sqlite3")})
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" not in result.stderr
    assert "DATABASE_PATH=" in result.stderr


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings({"DISCORD_TOKEN": "abc"})
    assert settings.database_path == Path(DEFAULT_DATABASE_PATH)
    assert (tmp_path / "data").is_dir()
    assert settings.log_level == logging.INFO
    assert "abc" not in repr(settings)


def test_log_level_is_checked(tmp_path: Path) -> None:
    environ = {"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path / "db.sqlite3")}
    assert load_settings({**environ, "LOG_LEVEL": "debug"}).log_level == logging.DEBUG
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        load_settings({**environ, "LOG_LEVEL": "LOUD"})


def test_database_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="is a folder"):
        load_settings({"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path)})


@pytest.mark.parametrize("ending", ["/", "/.", "/.."])
def test_database_path_ending_in_a_folder_is_refused_and_nothing_made(
    tmp_path: Path, ending: str
) -> None:
    """``data/db/`` with no ``data/db`` yet: before, a file named ``db`` was created."""
    raw = f"{tmp_path / 'missing' / 'db'}{ending}"
    with pytest.raises(SettingsError, match="ends in a folder, not a file name") as raised:
        load_settings({"DISCORD_TOKEN": "abc", "DATABASE_PATH": raw})
    assert "\n" not in str(raised.value)
    assert list(tmp_path.iterdir()) == []


def test_blank_token_is_missing(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        load_settings({"DISCORD_TOKEN": "   ", "DATABASE_PATH": str(tmp_path / "x")})


@pytest.mark.parametrize(
    "token",
    ["\x1b[200~abc.def\x1b[201~", "abc\x00def", "abc\u200bdef", "abc\x7f", "\u202eabc"],
)
def test_a_token_with_a_control_character_is_refused_without_showing_it(
    tmp_path: Path, token: str
) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings({"DISCORD_TOKEN": token, "DATABASE_PATH": str(tmp_path / "x")})
    message = str(refused.value)
    assert "control character" in message and "ESC[200~" in message and "abc" not in message


@pytest.mark.parametrize("token", ["abc…def", "ábc", "abc/def", "abc+def=="])
def test_a_token_with_characters_no_token_has_is_refused(tmp_path: Path, token: str) -> None:
    with pytest.raises(SettingsError, match="characters a bot token never has") as refused:
        load_settings({"DISCORD_TOKEN": token, "DATABASE_PATH": str(tmp_path / "x")})
    assert "abc" not in str(refused.value)


def test_a_real_shaped_token_is_accepted(tmp_path: Path) -> None:
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz_-0123456789AB"
    settings = load_settings({"DISCORD_TOKEN": f" {token} ", "DATABASE_PATH": str(tmp_path / "x")})
    assert settings.token == token
