"""Django's PostgreSQL backend, its connection's health check without a round trip.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before each request's first query, so
that a connection PostgreSQL ended (a restart, its process killed) is replaced instead of
failing the request. That is a round trip on every request: about 0.2 ms of a 7-10 ms read
(issue 38). A server that ends a connection sends its last message (FATAL, "terminating
connection") or just closes the socket, and either makes the socket readable, while an idle
connection that is well has nothing to read. So the socket is looked at, without waiting,
and only a connection with something to read, or one inside a transaction, is asked for
real. Not seen this way, as not by ``SELECT 1`` in time: a server gone without a word (its
machine off the network); the request then fails as it would have.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.status != pq.ConnStatus.OK:
            return False
        idle = connection.info.transaction_status == pq.TransactionStatus.IDLE
        if not idle or has_something_to_read(connection.fileno()):
            return super().is_usable()
        return True


def has_something_to_read(fd: int) -> bool:
    """Whether the socket has data or its end waiting (a closed socket reads as ready)."""
    if hasattr(select, "poll"):  # select() refuses a descriptor above 1023
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(0))  # POLLERR and POLLHUP come without asking
    readable, _, broken = select.select([fd], [], [fd], 0)  # Windows has no poll()
    return bool(readable or broken)
