"""Tests of the server's side of live results (live.server)."""
