"""Schema history of the tournaments app."""
