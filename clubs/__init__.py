"""Clubs, players, memberships and the per-club roles that decide who may do what.

Owns the player registry (import, German name order) and `clubs.permissions`, which every
other app asks. Imports only `common` and the rules below it."""
