"""Tests of federation.demo: the demo federation of `make run`."""
