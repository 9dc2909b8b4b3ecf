"""Schema history of the prizes app."""
