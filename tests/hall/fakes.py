"""A laptop's network as the hall mode sees it, without touching the machine's own."""

from __future__ import annotations

import pytest

from common import lan
from common.lan import Interface

HALL_WIFI = [
    Interface("lo", "127.0.0.1", True),
    Interface("wlan0", "192.168.1.23", True),
    Interface("docker0", "172.17.0.1", True),
]


@pytest.fixture
def network(monkeypatch):
    """The interfaces the laptop has: a list a test may change while the hall runs."""
    interfaces = list(HALL_WIFI)
    monkeypatch.setattr(lan, "read_interfaces", lambda: list(interfaces))
    lan.forget_cached_address()
    yield interfaces
    lan.forget_cached_address()


@pytest.fixture
def hall_mode(settings, tmp_path, network):
    """Settings of `python -m romme.hall` on port 8000 with its data folder in tmp_path."""
    from hall.access import flags

    settings.HALL_MODE = True
    settings.HALL_DATA_DIR = tmp_path
    settings.HALL_URL = ""
    settings.HALL_PORT = 8000
    settings.HALL_LISTEN = ""
    settings.HALL_OTHER_DEVICES = ["127.0.0.3"]
    settings.ALLOWED_HOSTS = ["*"]
    flags.forget()
    yield tmp_path
    flags.forget()
