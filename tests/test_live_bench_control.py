"""``python -m bench live --cost-only N --control``: the link stays off in both kinds of
block, so the table shows what chance alone gives; the table says so."""

from types import SimpleNamespace

import pytest

from bench.live import measure, options


def _run_cost(monkeypatch, control: bool) -> list[bool]:
    import live.laptop.services

    switched: list[bool] = []
    monkeypatch.setattr(live.laptop.services, "set_sending", lambda _d, _e, on: switched.append(on))
    monkeypatch.setattr(measure, "PACE_S", 0.0)
    monkeypatch.setattr(measure, "wait_for", lambda *_a, **_k: 0.0)
    monkeypatch.setattr(measure, "next_series", lambda *_a: None)
    monkeypatch.setattr(measure, "tables_of", lambda _s: list(range(100)))
    monkeypatch.setattr(measure, "pushes_between", lambda *_a: [])
    monkeypatch.setattr(measure, "play_sheet", lambda *_a: 0.01)
    cost = measure.measure_cost(object(), object(), object(), 20, control=control)
    assert len(cost["times"]["off"]) == len(cost["times"]["on"]) == 20
    return switched


def test_the_control_run_never_switches_the_link_on_between_its_blocks(monkeypatch):
    # Four blocks of ten, then the link on at the end so that the event catches up.
    assert _run_cost(monkeypatch, control=False) == [False, True, False, True, True]
    assert _run_cost(monkeypatch, control=True) == [False, False, False, False, True]


def test_control_needs_the_cost_alone(capsys):
    assert options.parse(["--cost-only", "300", "--control"], "live").control
    with pytest.raises(SystemExit):
        options.parse(["--control"], "live")
    assert "--control goes with --cost-only" in capsys.readouterr().err


def test_the_control_table_says_the_link_was_off_in_both(capsys):
    from bench.live.report import report

    args = SimpleNamespace(quick=False, cost_only=20, server_nice=0, server_own_disk=False,
                           server_core=False, control=True)  # fmt: skip
    cost = {"times": {"off": [0.010] * 20, "on": [0.010] * 20}, "pushes": {"on": 0, "off": 0},
            "busy": {"on": 0.0, "off": 0.0}, "spent": {"on": 10.0, "off": 10.0}}  # fmt: skip
    report(args, None, cost, None, [1.0, 1.0], [(1.0,)], "")
    out = capsys.readouterr().out
    assert "the link off in both kinds of block, chance alone (--control)" in out
    assert "| save + confirm, link off too (--control): p50 / p95 ms (20) | 10.0 / 10.0 |" in out
