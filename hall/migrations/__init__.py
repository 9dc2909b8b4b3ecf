"""Schema history of the hall app."""
