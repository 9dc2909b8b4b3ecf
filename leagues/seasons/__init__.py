"""A league season and its divisions, teams and rosters: created, changed and checked by the
officer and the clubs (eligibility, deadlines, promotion and relegation counts)."""
