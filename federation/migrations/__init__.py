"""Schema history of the federation."""
