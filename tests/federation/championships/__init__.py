"""Tests of federation.championships: services and the qualification list."""
