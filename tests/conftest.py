"""Hypothesis profiles.

CI (``CI=true``, as ``.ci/run`` is run) uses the ``ci`` profile: derandomized, so a green run on
main stays green on the same code; a property failure found there is reproducible from its seed.
Elsewhere the ``dev`` profile explores new examples on every run. ``HYPOTHESIS_PROFILE=<name>``
selects a profile explicitly.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
)
