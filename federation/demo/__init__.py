"""The demo federation of `make run`: associations, affiliations, a ranking officer, and
rankings with approved events, a snapshot and a championship (through the real services)."""
