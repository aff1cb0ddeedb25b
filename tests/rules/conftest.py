"""Setup of the pure-rules tests, which are also `make mutation`'s judges (see pyproject.toml).

Every module in this folder imports nothing but `rules`, the standard library, pytest,
Hypothesis and `tests.rules.factories`, so mutmut's copy of the tree (./mutants holds rules/ and
tests/ only) runs all of them as they are. Tests of bot/ live in tests/bot/.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import settings

#: True in the copy of the tree that mutmut runs from.
IN_MUTANTS = "mutants" in Path(__file__).resolve().parts

# A mutant should be judged the same way every time and quickly; the explicit max_examples of
# a test (test_properties.py) still wins over the profile.
settings.register_profile(
    "mutation", max_examples=20, deadline=None, derandomize=True, database=None
)

# SALUD_HYPOTHESIS_PROFILE picks a profile; the copy that mutmut runs from ./mutants defaults to
# "mutation" so that a bare `mutmut run` is not slowed down by the default 100 examples.
_profile = os.environ.get("SALUD_HYPOTHESIS_PROFILE", "mutation" if IN_MUTANTS else None)
if _profile:
    settings.load_profile(_profile)
