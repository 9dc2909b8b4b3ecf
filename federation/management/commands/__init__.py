"""`manage.py submit_event` (send an event to the federation) and `club_token`."""
