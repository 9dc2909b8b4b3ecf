"""Tests of federation.associations: the tree, its pages, roles and permissions, the writes."""
