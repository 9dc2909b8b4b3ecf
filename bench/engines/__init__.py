"""The pure engines measured without Django or a database: checking and scoring hands under
every preset (rules_engine), the seating draw on a 400-player field (seating_draw) and whether
plausible hands reach the reported totals of the ranking-points preset (ranking_points)."""
