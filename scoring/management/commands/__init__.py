"""`manage.py export`, `export_event`, `import_event`, `recompute_event`, `seed_demo`."""
