"""The files a self-hoster runs the bot with: the systemd unit, the Dockerfile and compose.yaml.

No container can be built here (no registry to pull a base image from), so these tests check
what can be checked without one: systemd's own verifier on the unit, and the structure that
makes each file do what the README promises (own user, restart on failure, SIGTERM, token from
the environment, database on a volume)."""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml

from bot.app import DRAIN_SECONDS

PROJECT_ROOT = Path(__file__).resolve().parents[2]
UNIT = PROJECT_ROOT / "deploy" / "salud.service"


def unit_sections() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = (PROJECT_ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    steps = []
    for line in joined.splitlines():
        if line.strip():
            instruction, _, arguments = line.strip().partition(" ")
            steps.append((instruction.upper(), arguments.strip()))
    return steps


def one(steps: list[tuple[str, str]], instruction: str) -> str:
    found = [arguments for name, arguments in steps if name == instruction]
    assert len(found) == 1, f"{instruction}: {found}"
    return found[0]


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((PROJECT_ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """`systemd-analyze verify` (warnings included), with ExecStart pointed at this checkout's
    `salud`, as /opt/salud/.venv/bin/salud does not exist on a development machine."""
    salud = Path(sys.executable).parent / "salud"
    assert salud.exists(), "the salud script is installed by `pip install -e .`"
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/salud/.venv/bin/salud\n" in text
    copy = tmp_path / "salud.service"
    copy.write_text(text.replace("/opt/salud/.venv/bin/salud", str(salud)), encoding="utf-8")
    verified = subprocess.run(
        ["systemd-analyze", "verify", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout + verified.stderr == "", "systemd warned about the unit"


def test_the_unit_runs_as_its_own_user_restarts_and_stops_with_sigterm() -> None:
    service = unit_sections()["Service"]
    assert service["User"] == service["Group"] == "salud"
    assert service["ExecStart"] == "/opt/salud/.venv/bin/salud"
    scripts = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["salud"] == "bot.__main__:main"
    assert service["Restart"] == "on-failure"
    # Not restarted: 2 (a setting or the database to fix), 3 (token refused); 4 is retried.
    assert set(service["RestartPreventExitStatus"].split()) == {"2", "3"}
    assert service["KillSignal"] == "SIGTERM"
    assert float(service["TimeoutStopSec"]) > DRAIN_SECONDS + 5
    assert service["StateDirectory"] == "salud"
    assert service["Environment"] == "DATABASE_PATH=/var/lib/salud/bot.sqlite3"
    assert service["EnvironmentFile"] == "/etc/salud/salud.env"
    assert service["ProtectSystem"] == "strict", "only the state folder is writable"


def test_the_image_runs_as_a_user_with_the_database_on_a_volume() -> None:
    steps = dockerfile()
    assert steps[0][0] == "FROM"
    user = one(steps, "USER")
    assert user not in {"root", "0"} and user == "salud"
    assert [name for name, _ in steps].index("USER") > max(
        index for index, (name, _) in enumerate(steps) if name == "RUN"
    ), "every RUN is done before the switch to the user"
    volume = one(steps, "VOLUME")
    env = dict(shlex.split(pair)[0].split("=", 1) for pair in one(steps, "ENV").split())
    assert Path(env["DATABASE_PATH"]).parent == Path(volume)
    assert one(steps, "STOPSIGNAL") == "SIGTERM"
    assert json.loads(one(steps, "ENTRYPOINT")) == ["salud"]
    installs = [arguments for name, arguments in steps if name == "RUN" and "pip" in arguments]
    assert installs == ["pip install . && rm -rf /src"], "the run-time dependencies only"
    assert not [step for step in steps if "DISCORD_TOKEN" in step[1]], "no token in the image"


def test_the_image_copies_only_files_that_exist_and_are_not_ignored() -> None:
    ignored = (PROJECT_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    allowed = {line[1:].rstrip("/") for line in ignored if line.startswith("!")}
    for name, arguments in dockerfile():
        if name != "COPY":
            continue
        *sources, _target = arguments.split()
        for source in sources:
            assert (PROJECT_ROOT / source).exists(), source
            assert source.rstrip("/") in allowed, f"{source} is left out by .dockerignore"


def test_compose_takes_the_token_from_the_environment_and_keeps_data_on_a_volume() -> None:
    document = compose()
    service = document["services"]["salud"]
    assert service["build"] == "."
    token = service["environment"]["DISCORD_TOKEN"]
    assert re.fullmatch(r"\$\{DISCORD_TOKEN(:\?[^}]+)?\}", token), "never a token in the file"
    assert service["restart"] in {"unless-stopped", "always", "on-failure"}
    assert service["stop_signal"] == "SIGTERM"
    volume_name, mount = service["volumes"][0].split(":")
    assert volume_name in document["volumes"]
    assert mount == one(dockerfile(), "VOLUME")


def make(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(PROJECT_ROOT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAKE"))}


def test_make_run_installs_the_run_time_dependencies_and_make_test_the_dev_tools() -> None:
    run = make("-n", "-B", "run", env=base_env())
    assert "pip install --quiet --disable-pip-version-check -e .\n" in run.stdout, run.stdout
    assert "[dev]" not in run.stdout
    lint = make("-n", "-B", "lint", env=base_env())
    assert "-e '.[dev]'" in lint.stdout, lint.stdout


def installed(tmp_path: Path) -> str:
    """A stamp newer than pyproject.toml: make takes the environment as installed."""
    stamp = tmp_path / "installed"
    stamp.touch()
    return f"RUN_STAMP={stamp}"


def test_make_run_without_a_token_prints_one_line_and_no_make_error(tmp_path: Path) -> None:
    env = {**base_env(), "DISCORD_TOKEN": ""}  # also hides a developer's own .env token
    bin_dir = str(Path(sys.executable).parent)
    result = make("run", installed(tmp_path), f"BIN={bin_dir}", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("salud: DISCORD_TOKEN is not set.")
    assert result.stderr.count("\n") == 1, result.stderr


def test_make_run_still_fails_on_other_exit_codes(tmp_path: Path) -> None:
    stamp = installed(tmp_path)
    fake_python = tmp_path / "python"
    fake_python.write_text("#!/bin/sh\necho 'salud: Discord refused the token.' >&2\nexit 3\n")
    fake_python.chmod(0o755)
    result = make("run", stamp, f"BIN={tmp_path}", env=base_env())
    assert result.returncode != 0
    assert "Error 3" in result.stderr
