"""The hall's disk fault check fills the disk only after emptying SQLite's WAL file
(bench/faults/hall.py: truncate_wal): after a checkpoint SQLite writes into the WAL's blocks
again from its start, so a small write would land on a full disk without a new block."""

import sqlite3
from contextlib import closing

from bench.faults.hall import truncate_wal


def test_the_wal_is_empty_after_truncate_wal_while_another_connection_is_open(tmp_path):
    database = tmp_path / "romme.sqlite3"
    wal = tmp_path / "romme.sqlite3-wal"
    with closing(sqlite3.connect(database, isolation_level=None)) as hall:
        hall.execute("PRAGMA journal_mode=WAL")
        hall.execute("CREATE TABLE t (a TEXT)")
        for _ in range(20):
            hall.execute("INSERT INTO t VALUES (?)", ("x" * 2000,))
        hall.execute("PRAGMA wal_checkpoint(PASSIVE)")
        assert wal.stat().st_size > 40_000  # checkpointed, but its blocks kept for reuse
        truncate_wal(database)
        assert wal.stat().st_size == 0
        assert hall.execute("SELECT count(*) FROM t").fetchone() == (20,)
