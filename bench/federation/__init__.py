"""The federation at scale: the ranking computed for 10,000 players (scale), its rules alone
without a database (ranking_rules), the public ranking list and JSON (public_list) and a
400-player event submitted end to end (submit)."""
