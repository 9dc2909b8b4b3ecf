"""JSON kept as plain text on every database.

A ranking snapshot writes 10,000 rows of JSON at once and its readers parse them in one go
(`federation.rankings.snapshot_rows`); nothing queries inside them. As ``jsonb`` PostgreSQL
parses every value on the way in and prints it again on the way out: most of the time of
writing a snapshot (issue 38, docs/performance-log.md). As text the value is stored as
written, on SQLite as before."""

from __future__ import annotations

import orjson
from django.db import models


def json_text(value) -> str:
    """The JSON text of a dict or list as the field stores it (orjson: a tenth of json.dumps's
    time for a ranking snapshot's 16 MB)."""
    return orjson.dumps(value).decode()


class JSONTextField(models.TextField):
    """A dict or list in, the same out; stored as the JSON text orjson writes."""

    def from_db_value(self, value, expression, connection):
        # An empty text holds no value (a row that takes it from elsewhere: None, not an error).
        return None if value is None or value == "" else orjson.loads(value)

    def to_python(self, value):
        if isinstance(value, str):
            return orjson.loads(value)
        return value

    def get_prep_value(self, value):
        return None if value is None else json_text(value)

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj))
