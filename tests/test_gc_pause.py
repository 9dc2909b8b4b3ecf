"""common.gc_pause: the collector is paused inside and back as it was after, also when the
work inside fails."""

import gc

import pytest

from common.gc_pause import cycle_collection_paused


def test_paused_inside_and_enabled_after_even_on_error():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), cycle_collection_paused():
        assert not gc.isenabled()
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled():
    gc.disable()
    try:
        with cycle_collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
