"""bench.engines.host_jitter: the spread of identical work and its A/A rise, as the live
bench reads its director's saves."""

from bench.engines.host_jitter import main, sample, summary


def test_a_host_that_runs_a_third_of_the_work_slower_shows_it():
    fast, slow = [6.0] * 200, [10.0] * 100
    s = summary({"off": fast[:100] + slow[:50], "on": fast[100:] + slow[50:]})
    assert s["n"] == 300
    assert s["p50"] == 6.0 and s["p95"] == 10.0 and s["max"] == 10.0
    assert round(s["p95/p50"], 2) == 1.67
    assert round(s["slow share"], 2) == 0.33
    assert s["rise"] == 0.0 and s["low"] <= 0.0 <= s["high"]


def test_a_steady_host_has_no_slow_share_and_a_real_rise_is_seen():
    off = [5.0 + i / 1000 for i in range(100)]
    s = summary({"off": off, "on": [x * 1.2 for x in off]})
    assert s["slow share"] == 0 and s["p95/p50"] < 1.2
    assert 15 < s["rise"] < 25 and s["low"] > 10


def test_blocks_alternate_and_the_table_is_printed(capsys):
    times = sample(per_mode=12, pause=0.0, iterations=100)
    assert len(times["off"]) >= 12 and len(times["on"]) >= 12
    assert all(t > 0 for t in times["off"] + times["on"])
    assert main(["--per-mode", "10", "--pause", "0", "--iterations", "100"]) == 0
    out = capsys.readouterr().out
    assert "| p95 / p50 |" in out
    assert '| A/A: p95 of 10 "on" against 10 "off" |' in out
    assert "… 90 % interval (bench.live.report's bootstrap)" in out
