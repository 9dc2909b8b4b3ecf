"""Tests of federation.rankings: the computation, snapshot rows, the status and review."""
