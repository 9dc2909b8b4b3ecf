"""Models of the tournament workflow (events, series, tables, seats)."""
