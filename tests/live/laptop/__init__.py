"""Tests of the laptop's side of live results (live.laptop)."""
