"""The anonymous league pages and JSON (divisions, tables, match days, teams, calendar), cached
with ETags, with the DSGVO hiding. Reads only."""
