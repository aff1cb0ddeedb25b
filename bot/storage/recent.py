"""The interactions this process applied lately, to refuse a repeated one without a query.

Discord may deliver an interaction again when the gateway resumes a session (never to a new
session, so never across a restart). Checking the history for its id was one more round trip
to the database thread on every changing command (issue 6); this bounded memory of the ids
committed lately answers the same question for free. The history's UNIQUE index on
``interaction_id`` stays the guarantee: a repeat this memory misses is refused by ``record``
(``AlreadyApplied``) and its transaction rolled back.
"""

from __future__ import annotations

from collections import OrderedDict

__all__ = ["RECENT_INTERACTIONS", "RecentInteractions"]

#: Ids remembered (tens of bytes each); far more than a resumed session can replay.
RECENT_INTERACTIONS = 20_000


class RecentInteractions:
    """The last ``size`` interaction ids added, oldest forgotten first."""

    def __init__(self, size: int = RECENT_INTERACTIONS) -> None:
        self._size = size
        self._ids: OrderedDict[int, None] = OrderedDict()

    def __contains__(self, interaction_id: int) -> bool:
        return interaction_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, interaction_id: int) -> None:
        self._ids[interaction_id] = None
        while len(self._ids) > self._size:
            self._ids.popitem(last=False)
