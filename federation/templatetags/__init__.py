"""Template tags of the federation: its navigation and the ranking status box."""
