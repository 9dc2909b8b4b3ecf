"""The bench's closing budgets table: the ratio and its verdict for PostgreSQL over TCP and over
the local socket (bench.timing.budgets)."""

from __future__ import annotations

import pytest

from bench.timing import budgets


def _row(median_ms: float) -> dict:
    return {"operation": "standings page, individual", "size": "large", "median_ms": median_ms}


def _line(text: str) -> str:
    return next(line for line in text.splitlines() if "standings page, individual" in line)


@pytest.mark.parametrize("postgres", ["postgresql", "postgresql-socket"])
def test_ratio_over_the_ceiling_is_named(postgres):
    line = _line(budgets.table({"sqlite": [_row(50.0)], postgres: [_row(65.0)]}))
    assert "1.30" in line
    assert line.endswith("PASS (PostgreSQL over 1.2x)")


def test_ratio_within_the_ceiling_passes_plainly():
    line = _line(budgets.table({"sqlite": [_row(50.0)], "postgresql-socket": [_row(55.0)]}))
    assert "1.10" in line
    assert line.endswith("| PASS")


def test_no_ratio_between_two_postgresql_connections():
    line = _line(budgets.table({"postgresql": [_row(50.0)], "postgresql-socket": [_row(65.0)]}))
    assert "1.30" not in line
    assert line.endswith("| PASS")


def test_a_budget_missed_is_a_fail_row():
    line = _line(budgets.table({"sqlite": [_row(160.0)], "postgresql-socket": [_row(100.0)]}))
    assert line.endswith("FAIL sqlite")
