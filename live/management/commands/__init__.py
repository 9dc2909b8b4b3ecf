"""`manage.py live_push` (send an event now) and `live_token` (a server's token for a club)."""
