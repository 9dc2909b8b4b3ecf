"""The clubs app's `manage.py` commands."""
