"""The pure standings core: tie-break metrics, ranking under a chain, tie policies.

No Django: `scoring.standings` reads the database and hands plain entries to these functions.
"""
