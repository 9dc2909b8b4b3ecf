"""The laptop's addresses (faked interface lists) and the address phones are given."""

import datetime as dt

import pytest

from common import lan
from common.lan import Interface, lan_addresses


def test_only_up_non_loopback_ipv4_addresses_count():
    found = lan_addresses(
        [
            Interface("lo", "127.0.0.1", True),
            Interface("eth0", "10.0.0.5", False),  # cable pulled
            Interface("wlan0", "192.168.1.23", True),
            Interface("wlan0", "169.254.10.2", True),  # no DHCP answered
            Interface("en0", "not an address", True),
        ]
    )
    assert found == ["192.168.1.23"]


def test_the_hall_network_comes_before_virtual_adapters():
    found = lan_addresses(
        [
            Interface("docker0", "172.17.0.1", True),
            Interface("vEthernet (WSL)", "172.20.32.1", True),
            Interface("VirtualBox Host-Only Network", "192.168.56.1", True),
            Interface("Wi-Fi", "10.1.2.3", True),
            Interface("Ethernet", "192.168.178.20", True),
        ]
    )
    assert found[:2] == ["192.168.178.20", "10.1.2.3"]
    assert set(found[2:]) == {"172.17.0.1", "172.20.32.1", "192.168.56.1"}


def test_no_network_no_address():
    assert lan_addresses([Interface("lo", "127.0.0.1", True)]) == []
    assert lan_addresses([]) == []


def test_the_phones_address_uses_the_port(hall_mode, settings):
    settings.HALL_PORT = 8150
    found = lan.hall_address(fresh=True)
    assert found.url == "http://192.168.1.23:8150"
    assert found.others == ("http://172.17.0.1:8150",)
    assert lan.allowed_hosts() >= {"localhost", "127.0.0.1", "192.168.1.23", "172.17.0.1"}


def test_hall_url_wins(hall_mode, settings):
    settings.HALL_URL = "http://10.10.0.1:8000/"
    found = lan.hall_address(fresh=True)
    assert found.url == "http://10.10.0.1:8000" and found.from_setting
    assert "10.10.0.1" in lan.allowed_hosts()


def test_the_laptops_own_url_follows_the_listen_address(hall_mode, settings):
    assert lan.laptop_url(8000) == "http://127.0.0.1:8000/"
    assert lan.laptop_url(8000, "0.0.0.0") == "http://127.0.0.1:8000/"
    assert lan.laptop_url(8000, "::") == "http://127.0.0.1:8000/"
    assert lan.laptop_url(8001, "192.168.1.23") == "http://192.168.1.23:8001/"
    assert lan.laptop_url(8001, "fe80::1") == "http://[fe80::1]:8001/"
    assert "127.0.0.3" not in lan.allowed_hosts()
    settings.HALL_LISTEN = "127.0.0.3"  # one address that is not among the laptop's LAN ones
    assert "127.0.0.3" in lan.allowed_hosts()
    settings.HALL_LISTEN = "0.0.0.0"
    assert "0.0.0.0" not in lan.allowed_hosts()


def test_a_hall_listening_on_one_lan_address_gives_the_phones_that_one(hall_mode, settings):
    settings.HALL_LISTEN = "172.17.0.1"  # not the likeliest address, but the one answering
    found = lan.hall_address(fresh=True)
    assert found.url == "http://172.17.0.1:8000" and found.others == ()
    assert "192.168.1.23" in lan.allowed_hosts()  # still the laptop's own address


def test_without_network_the_url_is_empty(hall_mode, network):
    network[:] = [Interface("lo", "127.0.0.1", True)]
    assert lan.hall_address(fresh=True).url == ""


def test_a_new_address_is_recorded_with_the_old_one(hall_mode, network):
    assert lan.hall_address(fresh=True).url == "http://192.168.1.23:8000"
    assert lan.address_change() is None  # the first address is no change
    network[1] = Interface("wlan0", "10.0.0.7", True)
    before = dt.datetime.now(dt.UTC)
    assert lan.hall_address(fresh=True).url == "http://10.0.0.7:8000"
    change = lan.address_change()
    assert change.previous == "http://192.168.1.23:8000" and change.url == "http://10.0.0.7:8000"
    assert change.since >= before - dt.timedelta(seconds=1)
    # A moment without network is no new address: the record stays.
    network[:] = []
    lan.hall_address(fresh=True)
    assert lan.address_change().previous == "http://192.168.1.23:8000"


def test_the_address_is_read_again_after_a_few_seconds(hall_mode, network, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(lan.time, "monotonic", lambda: clock[0])
    lan.forget_cached_address()
    assert lan.hall_address().url.startswith("http://192.168.1.23")
    network[1] = Interface("wlan0", "10.0.0.7", True)
    assert lan.hall_address().url.startswith("http://192.168.1.23")  # cached
    clock[0] += lan.REFRESH_SECONDS + 0.1
    assert lan.hall_address().url.startswith("http://10.0.0.7")


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost:8000/t/x/", True),
        ("http://127.0.0.2:8000", False),  # an alias: only a deliberate HALL_URL names it
        ("http://tisch.localhost:8000", True),
        ("http://[::1]:8000", True),
        ("http://192.168.1.23:8000", False),
        ("https://romme.example.org", False),
    ],
)
def test_what_a_phone_cannot_reach(url, local):
    assert lan.points_to_this_machine(url) is local


def test_the_laptop_is_loopback_or_its_own_address(hall_mode):
    assert lan.is_laptop("127.0.0.1") and lan.is_laptop("::1")
    assert lan.is_laptop("192.168.1.23")  # the director's browser at the LAN address
    assert not lan.is_laptop("192.168.1.50")  # a phone
    assert not lan.is_laptop("127.0.0.3")  # marked as another device for tests
    assert not lan.is_laptop("")
