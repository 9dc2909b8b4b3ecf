"""Management commands of the federation."""
