"""`manage.py hall_backups` and `restore_backup`."""
