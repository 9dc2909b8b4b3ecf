"""A new SQLite database made from the models (hall.new_database, through `manage.py
migrate`) is the database Django's migrate makes by replaying every migration: the same
tables, columns, constraints and indexes, the same migrations recorded and the same rows.
A migration that seeds rows or makes something the models do not describe fails here."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.same_on_every_database


def make(path: Path, mode: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HALL_", "ROMME_"))}
    env.update(DEBUG="1")
    done = subprocess.run(
        [sys.executable, "-m", "tests.hall.new_database_script", str(path), mode],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _definitions(sql: str) -> list[str]:
    """A CREATE TABLE's column and constraint definitions, in any order: a column a
    migration added stands last in its table, the models' order differs."""
    inner = sql[sql.index("(") + 1 : sql.rindex(")")]
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return sorted([*parts, current.strip()])


def schema(db: sqlite3.Connection) -> dict:
    found = {}
    for kind, name, table, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        if kind == "table":
            found[("table", name)] = _definitions(sql)
        elif name.startswith("sqlite_autoindex"):  # (numbered by the columns' order)
            columns = tuple(row[2] for row in db.execute(f'PRAGMA index_info("{name}")'))
            found[("unique", table, columns)] = True
        else:
            found[(kind, name)] = sql
    return found


def rows(db: sqlite3.Connection) -> dict:
    """Every table's rows as sets of (column, value); the registers by their natural keys
    (a content type's id follows the order its model was made in); SQLite's id counters
    and the migrations' times left out."""
    found = {}
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        if table == "sqlite_sequence":
            continue
        if table == "django_content_type":
            query = "SELECT app_label, model FROM django_content_type"
        elif table == "auth_permission":
            query = (
                "SELECT p.codename, p.name, c.app_label, c.model FROM auth_permission p "
                "JOIN django_content_type c ON c.id = p.content_type_id"
            )
        elif table == "django_migrations":
            query = "SELECT app, name FROM django_migrations"
        else:
            query = f'SELECT * FROM "{table}"'
        found[table] = sorted(db.execute(query).fetchall(), key=repr)
    return found


def test_made_from_the_models_as_migrate_makes_it(tmp_path):
    replayed, made = tmp_path / "replayed.sqlite3", tmp_path / "made.sqlite3"
    make(replayed, "django")
    said = make(made, "ours")
    assert "tables made from the models" in said
    with sqlite3.connect(replayed) as a, sqlite3.connect(made) as b:
        assert schema(b) == schema(a)
        assert rows(b) == rows(a)
        migrations = b.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
        tables = b.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        assert migrations > 90 and tables.fetchone()[0] > 100
    # Then Django's migrate finds nothing to do on it, and ours leaves it to Django.
    assert "No migrations to apply" in make(made, "ours")


def test_a_first_start_cut_short_leaves_no_table(tmp_path):
    said = make(tmp_path / "cut.sqlite3", "fails")
    assert "FAILED Testfehler" in said and "TABLES 0" in said
