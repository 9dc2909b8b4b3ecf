"""Faults tried for real (``python -m bench faults``): PostgreSQL restarted during saves and a
full or read-only disk under SQLite (database), the hall mode on a full disk (hall), live
replication through a cut network and restarts (live); the scorers' side and the checks of
every part in desk; the command choosing the parts in command."""
