"""Schema history of the clubs app."""
