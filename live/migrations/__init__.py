"""Schema history of live results."""
