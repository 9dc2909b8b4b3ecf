"""League play at scale: a national league's division tables, approvals and the season's end."""
