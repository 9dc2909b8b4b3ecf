"""Settings of the servers `bench.timing.prerender` starts: the project's, with the
standings PDF rendered ahead or not (BENCH_PRERENDER_SETTLE: seconds, or "off")."""

import os

from romme.settings import *  # noqa: F403

_settle = os.environ.get("BENCH_PRERENDER_SETTLE", "")
if _settle:
    STANDINGS_PRERENDER_SETTLE = None if _settle == "off" else float(_settle)
