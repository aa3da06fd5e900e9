"""Test settings: Hypothesis without deadlines (the suite runs on busy machines), and
derandomized under CI so that a run is reproducible; run locally it explores afresh."""

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
