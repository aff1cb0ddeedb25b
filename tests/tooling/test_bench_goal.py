"""``make bench``'s verdict on issue 29's four cells (bench/goal.py): read from the run, loud
when one passes 1.25×, and the run's exit code says so."""

from __future__ import annotations

from bench.__main__ import Cell, Config, Run, SqliteCell, goal_cells, report
from bench.goal import GOAL_CELLS, GoalCell, goal_lines
from bench.loadgen import CellResult


def result(cpu_ms: float, count: int = 400) -> CellResult:
    measured = CellResult()
    measured.latencies = [0.001] * count
    measured.bot_cpu = cpu_ms / 1000 * count
    measured.wall = 1.0
    return measured


def a_run(hurt: tuple[float, float], show: tuple[float, float]) -> Run:
    """Salud's CPU ms per reply at 1 and 50 in flight; the floor 0.6, the floor + SQLite 0.8."""
    config = Config(
        count=400,
        concurrency=(1, 50),
        servers=(10,),
        commands=("hurt", "character show"),
        warmup=0,
        validate=False,
        update_readme=False,
        profile=None,
        py_spy=None,
        inline_sqlite=False,
        floor_sqlite=True,
        keep=False,
        scale=(),
    )
    run = Run(config)
    for in_flight, hurt_ms, show_ms in ((1, hurt[0], show[0]), (50, hurt[1], show[1])):
        floor = result(0.6)
        run.cells.append(Cell("hurt", 10, in_flight, result(hurt_ms), floor))
        run.cells.append(Cell("character show", 10, in_flight, result(show_ms), floor))
        run.floor_sqlite.append(SqliteCell(in_flight, result(0.8), floor))
    return run


def test_the_four_cells_are_read_against_their_limits() -> None:
    cells = goal_cells(a_run(hurt=(0.9, 1.2), show=(0.7, 0.9)))
    assert [(c.command, c.in_flight, c.limit) for c in cells] == list(GOAL_CELLS)
    ratios = [round(c.ratio or 0, 3) for c in cells]
    assert ratios == [1.125, 1.5, 1.167, 1.5]
    assert [c.failed for c in cells] == [False, True, False, True]


def test_a_ratio_above_the_goal_fails_loudly_at_the_top_of_the_report() -> None:
    text = report(a_run(hurt=(0.9, 1.2), show=(0.7, 0.7)), detailed=False)
    first = text.splitlines()[0]
    assert first.startswith("**FAILED: 1 of 4 cells above 1.25×"), first
    assert "/hurt at 50 in flight (1.50×)" in first
    assert "| /hurt, 50 in flight | 1.20 | floor + SQLite | 0.80 | 1.50 ✗ |" in text


def test_within_the_goal_the_report_says_passed() -> None:
    text = report(a_run(hurt=(0.9, 0.95), show=(0.7, 0.7)), detailed=False)
    assert text.splitlines()[0] == "**Passed: the 4 cells within 1.25× their limit.**"


def test_a_cell_not_measured_is_shown_as_such() -> None:
    lines = goal_lines([GoalCell("hurt", 1, "floor + SQLite", None, 0.8)])
    assert lines == []
