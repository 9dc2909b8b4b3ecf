"""What happened at the tables: sheets, hands and their versions. Rules live in scoring.rules."""
