"""Schema history of the scoring app."""
