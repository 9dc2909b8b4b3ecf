"""The public federation pages and JSON (anonymous): calendar, archive, public ranking lists
and player cards, read from the newest snapshot of a public ranking and cached per snapshot.
Reads only: no other room's services, forms or views (pyproject.toml, [tool.importlinter])."""
