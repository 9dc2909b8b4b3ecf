"""A column among a long list of ids, as one parameter.

``filter(pk__in=ids)`` binds one parameter per id: for the 10,000 players of a national
ranking Django prepares each id through the field and psycopg parses a query with 10,000
placeholders, about 0.1 s on SQLite and 0.2 s on PostgreSQL per query before the database
sees it (issue 38, docs/performance-log.md). `AmongIds` sends the ids as one array
(PostgreSQL) or one JSON text (SQLite's ``json_each``, which Django's JSONField needs too)."""

from __future__ import annotations

import orjson
from django.db.models import F, Lookup


class AmongIds(Lookup):
    """``queryset.filter(among_ids("player_id", ids))``: the column's value is one of ``ids``
    (whole numbers)."""

    lookup_name = "among_ids"
    prepare_rhs = False  # the ids go in as one value, not one by one through the field

    def as_sql(self, compiler, connection):
        lhs, params = self.process_lhs(compiler, connection)
        ids = [int(i) for i in self.rhs]
        if connection.vendor == "postgresql":
            # An array literal as text: psycopg checks each item of a list it adapts (0.04 s
            # for 10,000), the server parses the text at once.
            return f"{lhs} = ANY(%s::bigint[])", (*params, "{" + ",".join(map(str, ids)) + "}")
        return f"{lhs} IN (SELECT value FROM json_each(%s))", (*params, orjson.dumps(ids).decode())


def among_ids(column: str, ids) -> AmongIds:
    return AmongIds(F(column), list(ids))
