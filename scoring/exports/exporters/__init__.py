"""The built-in exports, one module each; importing this package registers them all.

`scoring.apps.ScoringConfig.ready` imports it once, so the registry
(`scoring.exports.registry`) never imports an exporter.
"""

from . import (  # noqa: F401
    archive,
    category_standings,
    players,
    scope_standings,
    score_sheets,
    season,
    seating,
    standings,
    wall,
    workbook,
)
