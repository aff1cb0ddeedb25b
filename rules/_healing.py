"""The 2:1 healer: First Aid (F1, F4, F6) and Psychoanalysis (M9, M10) spend alike. Private.

A medic's point restores 2 of the patient's pool; only the points needed are spent
(``min(points, ceil(room / 2))``); the special treatment (stabilizing, F6; lucidity, M10)
costs exactly 2, refused when fewer are offered or held. What limits the ``room`` (the scene
for First Aid, the rating for Stability) and who may heal whom stay with each rule.
"""

from __future__ import annotations

from rules.errors import RuleError

__all__ = ["FIXED_COST", "POINTS_PER_POINT", "fixed_spend", "healing_spend"]

#: F1, M9: pool points restored per point spent.
POINTS_PER_POINT = 2
#: F6, M10: what stabilizing or a lucid scene costs, exactly.
FIXED_COST = 2


def healing_spend(
    offered: int, room: int, available: int, not_enough: type[RuleError]
) -> tuple[int, int]:
    """F4, M9: ``(spent, restored)`` for ``offered`` points when ``room`` (at least 1) may be
    restored; ``not_enough(available, needed)`` when the medic lacks the points needed."""
    spent = min(offered, -(-room // POINTS_PER_POINT))
    if available < spent:
        raise not_enough(available=available, needed=spent)
    return spent, min(POINTS_PER_POINT * spent, room)


def fixed_spend(
    offered: int, available: int, too_few: type[RuleError], not_enough: type[RuleError]
) -> int:
    """F6, M10: the fixed cost; ``too_few(offered, needed)`` when fewer points are offered,
    ``not_enough(available, needed)`` when the medic holds fewer."""
    if offered < FIXED_COST:
        raise too_few(offered=offered, needed=FIXED_COST)
    if available < FIXED_COST:
        raise not_enough(available=available, needed=FIXED_COST)
    return FIXED_COST
