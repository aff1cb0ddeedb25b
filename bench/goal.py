"""The four cells issue 29 holds Salud to, read from one run: each ratio is Salud's CPU per
reply to its limit's, measured in the same run (a change against the floor + SQLite, a
display against the floor), at the smallest database. A ratio above ``GOAL`` fails the run
(``make bench`` exits 1) and says so at the top of its report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["GOAL", "GOAL_CELLS", "GoalCell", "goal_lines"]

#: Salud's CPU per reply over its limit's, at most.
GOAL = 1.25
#: (command, in flight, its limit): the four cells of issue 29.
GOAL_CELLS: tuple[tuple[str, int, str], ...] = (
    ("hurt", 1, "floor + SQLite"),
    ("hurt", 50, "floor + SQLite"),
    ("character show", 1, "floor"),
    ("character show", 50, "floor"),
)


@dataclass(frozen=True)
class GoalCell:
    """One of the four, as measured (``None``: not measured in this run)."""

    command: str
    in_flight: int
    limit: str
    salud_ms: float | None
    limit_ms: float | None

    @property
    def ratio(self) -> float | None:
        if self.salud_ms is None or not self.limit_ms:
            return None
        return self.salud_ms / self.limit_ms

    @property
    def failed(self) -> bool:
        return self.ratio is not None and self.ratio > GOAL


def goal_lines(cells: Sequence[GoalCell]) -> list[str]:
    """The verdict first (loud when a cell fails), then the four cells' table."""
    measured = [cell for cell in cells if cell.ratio is not None]
    failed = [cell for cell in measured if cell.failed]
    if not measured:
        return []
    if failed:
        names = ", ".join(
            f"/{c.command} at {c.in_flight} in flight ({c.ratio:.2f}×)" for c in failed
        )
        verdict = (
            f"**FAILED: {len(failed)} of {len(measured)} cells above {GOAL}× their limit:"
            f" {names}.**"
        )
    else:
        verdict = f"**Passed: the {len(measured)} cells within {GOAL}× their limit.**"
    lines = [
        verdict,
        "",
        "| cell (CPU ms per reply) | Salud | limit | limit's | ratio |",
        "| --- | ---: | --- | ---: | ---: |",
    ]
    for cell in cells:
        name = f"/{cell.command}, {cell.in_flight} in flight"
        if cell.ratio is None or cell.salud_ms is None or cell.limit_ms is None:
            lines.append(f"| {name} | — | {cell.limit} | — | — |")
            continue
        mark = " ✗" if cell.failed else ""
        lines.append(
            f"| {name} | {cell.salud_ms:.2f} | {cell.limit} |"
            f" {cell.limit_ms:.2f} | {cell.ratio:.2f}{mark} |"
        )
    return lines
