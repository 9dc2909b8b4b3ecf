"""Associations (a national one and regional ones below it), each club's affiliation with
one regional association, roles per association and the permissions they give, whether the
navigation shows "Verbände", and an association's history. The federation's ground floor:
every other room checks roles and asks for reasons through it."""
