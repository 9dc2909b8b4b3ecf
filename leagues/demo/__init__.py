"""The demo league of `make run`, and a bulk match-day player for the demo, tests and bench."""
