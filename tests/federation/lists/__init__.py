"""Tests of federation.lists: the members' ranking list, player card, sorting, prints, scale."""
