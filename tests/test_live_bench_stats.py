"""bench.live.report's interval of the director's p95 rise: around zero when nothing
differs, around a real rise when there is one."""

import random

from bench.live.report import rise_interval


def test_the_interval_brackets_the_rise():
    rng = random.Random(1)
    off = [rng.gauss(16, 3) for _ in range(100)]
    assert rise_interval(off, off)[0] < 0 < rise_interval(off, off)[1]
    low, high = rise_interval(off, [x * 1.3 for x in off])
    assert low < 30 < high and low > 5
