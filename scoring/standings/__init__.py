"""Standings read from the stored results: event, series, day, pairs, teams, categories and
season; pages, JSON and the public cache.

The ranking itself is the pure core in `rules.standings`; this package reads the database
(`aggregate`, `selectors`) and shows the result."""
