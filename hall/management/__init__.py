"""Management commands of the hall mode."""
