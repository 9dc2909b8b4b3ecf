"""One operation at a time on a fresh database, timed against the issues' budgets: the timing
table (``python -m bench``, table and compare), the standings, the exports and prerendered PDFs,
the event archive, saving a sheet, a rule-set change and where a database spends the read paths'
time (db_profile, db_side_by_side)."""
