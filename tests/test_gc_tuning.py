"""common.gc_tuning: the collector is paused inside and back as it was after, also when the
work inside fails."""

import gc

import pytest

from common.gc_tuning import cycle_collection_paused


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


def test_the_startup_heap_is_frozen_with_the_urlconf_loaded(db):
    from django.urls import get_resolver

    from common.gc_tuning import freeze_startup_heap

    gc.unfreeze()  # (as a fresh process: whatever froze before in this one)
    patterns = get_resolver().url_patterns
    assert any(o is patterns for o in gc.get_objects())  # walked by every full collection
    try:
        freeze_startup_heap()
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()  # the collector still runs for what requests leave behind
        patterns = get_resolver().url_patterns  # loaded before the freeze: not walked again
        assert not any(o is patterns for o in gc.get_objects())
    finally:
        gc.unfreeze()
