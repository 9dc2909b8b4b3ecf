"""Schema history of league play."""
