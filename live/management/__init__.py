"""Management commands of live results."""
