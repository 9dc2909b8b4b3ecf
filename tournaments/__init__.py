"""Events, participants, pairs and teams, categories, seasons and series; the seating draw.

`draw`, `draw_search` and `draw_types` are pure Python (no Django); `seating` is their
adapter to the database."""
