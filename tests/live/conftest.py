"""Fixtures of the live tests."""

import pytest

from live.laptop import transport
from tests.live.fake_server import FakeServer


@pytest.fixture
def server(monkeypatch):
    fake = FakeServer()
    fake.probes = []
    monkeypatch.setattr(transport, "post_json", fake)
    monkeypatch.setattr(transport, "get_json", fake.status)
    return fake
