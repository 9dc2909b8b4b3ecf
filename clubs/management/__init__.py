"""Management commands of the clubs app."""
