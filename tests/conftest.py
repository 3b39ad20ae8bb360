"""Shared pytest configuration for all tests (engine and bot).

Hypothesis profiles: "ci" (no deadline, 100 examples) is loaded when the ``CI``
environment variable is set (CI runs ``.ci/run`` with CI=true); otherwise "dev"
(30 examples) keeps local runs fast. Override with ``--hypothesis-profile``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=100)
settings.register_profile("dev", deadline=None, max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
