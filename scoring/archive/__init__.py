"""The event archive: one JSON file per event, validated (schema and rules), dumped and loaded;
other apps register their sections (prizes)."""
