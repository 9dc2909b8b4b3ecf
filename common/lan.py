"""The laptop on the hall's network: its addresses, the address phones must use, and who is
the laptop itself.

In the hall mode (`romme.hall`, settings.HALL_MODE) the phones reach the laptop at one of
its LAN addresses, never at 127.0.0.1. Every QR code and table link is built from
`phone_base_url`, never from the address of the director's own browser. The addresses are
read again every few seconds, so a laptop that moves to another network shows the new
address at once; the change is recorded in the data folder, so that the table-links page
can say that QR codes printed before it lead nowhere.
"""

from __future__ import annotations

import ipaddress
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone

# Adapters that exist on the laptop but not in the hall: containers, virtual machines, VPNs.
# Their addresses are still allowed as hosts, but never offered to the phones first.
VIRTUAL_ADAPTERS = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vbox",
    "virtualbox",
    "vmnet",
    "vmware",
    "vethernet",
    "hyper-v",
    "tailscale",
    "zt",
    "wg",
    "tun",
    "tap",
    "utun",
)
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
ADDRESS_FILE = "hall-address.json"
REFRESH_SECONDS = 5.0


@dataclass(frozen=True)
class Interface:
    name: str
    address: str
    is_up: bool


def read_interfaces() -> list[Interface]:
    """Every IPv4 address of every interface, with whether the interface is up (psutil:
    the same call on Windows, macOS and Linux)."""
    import socket

    import psutil

    stats = psutil.net_if_stats()
    found = []
    for name, addresses in psutil.net_if_addrs().items():
        up = bool(stats.get(name) and stats[name].isup)
        for entry in addresses:
            if entry.family == socket.AF_INET and entry.address:
                found.append(Interface(name=name, address=entry.address, is_up=up))
    return found


def _is_virtual(name: str) -> bool:
    lowered = name.casefold()
    return any(lowered.startswith(prefix) or prefix in lowered for prefix in VIRTUAL_ADAPTERS)


def _private_rank(address: ipaddress.IPv4Address) -> int:
    # Travel routers and hotspots hand out 192.168.x first, then 10.x, then 172.16-31.x.
    for rank, network in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")):
        if address in ipaddress.ip_network(network):
            return rank
    return 3


def lan_addresses(interfaces: list[Interface] | None = None) -> list[str]:
    """The laptop's non-loopback IPv4 addresses of interfaces that are up, the likeliest
    address for the phones first (a real adapter before a virtual one, private ranges in
    the order routers use them). Link-local 169.254.x (no DHCP answered) is left out: a
    phone cannot reach it."""
    if interfaces is None:
        interfaces = read_interfaces()
    chosen: dict[str, tuple] = {}
    for interface in interfaces:
        try:
            address = ipaddress.IPv4Address(interface.address)
        except ValueError:
            continue
        if not interface.is_up or address.is_loopback or address.is_link_local:
            continue
        if address.is_unspecified or address.is_multicast:
            continue
        key = (_is_virtual(interface.name), _private_rank(address), interface.name)
        chosen.setdefault(str(address), key)
    return sorted(chosen, key=lambda a: (*chosen[a], ipaddress.IPv4Address(a)))


@dataclass(frozen=True)
class HallAddress:
    url: str  # "" when no address was found (no network)
    addresses: tuple[str, ...] = ()
    from_setting: bool = False
    others: tuple[str, ...] = field(default=())

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or "" if self.url else ""


_lock = threading.Lock()
_cached: tuple[float, HallAddress] | None = None


def _port() -> int:
    return int(getattr(settings, "HALL_PORT", 8000))


def _detect() -> HallAddress:
    addresses = tuple(lan_addresses())
    configured = getattr(settings, "HALL_URL", "")
    if configured:
        return HallAddress(url=configured.rstrip("/"), addresses=addresses, from_setting=True)
    if not addresses:
        return HallAddress(url="")
    port = _port()
    listen = getattr(settings, "HALL_LISTEN", "")
    if listen in addresses:
        # `--listen` with one of the laptop's addresses: nothing answers on the others.
        return HallAddress(url=f"http://{listen}:{port}", addresses=addresses)
    urls = tuple(f"http://{address}:{port}" for address in addresses)
    return HallAddress(url=urls[0], addresses=addresses, others=urls[1:])


def hall_address(*, fresh: bool = False) -> HallAddress:
    """The address phones use, read again at most every REFRESH_SECONDS."""
    global _cached
    now = time.monotonic()
    with _lock:
        if not fresh and _cached and now - _cached[0] < REFRESH_SECONDS:
            return _cached[1]
    found = _detect()
    with _lock:
        _cached = (now, found)
    _record(found.url)
    return found


def forget_cached_address() -> None:
    global _cached
    with _lock:
        _cached = None


def phone_base_url(request) -> str:
    """The scheme, host and port every QR code and table link starts with.

    In the hall mode the laptop's LAN address (or HALL_URL), "" when there is no network;
    elsewhere (a server behind its own name, `make run`) the address the request came to.
    """
    if getattr(settings, "HALL_MODE", False):
        return hall_address().url
    return request.build_absolute_uri("/").rstrip("/")


def points_to_this_machine(url: str) -> bool:
    """True when a phone could not follow the URL: the names a browser on the laptop itself
    uses (localhost, 127.0.0.1, ::1). Other loopback aliases (127.0.0.2) are never what a
    director's browser shows; only a deliberate HALL_URL names one (CI stands them in for
    the hall's LAN address), so they count as an address."""
    host = (urlsplit(url).hostname or "").casefold()
    return host in LOCAL_NAMES or host.endswith(".localhost") or host == "0.0.0.0"


# What `--listen` means by "every address of this machine".
ALL_ADDRESSES = frozenset({"", "0.0.0.0", "::", "*"})


def laptop_url(port: int, listen: str = "") -> str:
    """The address the director's own browser opens: 127.0.0.1 while the hall listens on
    every address, else the one address it listens on (nothing answers at 127.0.0.1 when
    the hall listens on 192.168.1.5 only)."""
    host = "127.0.0.1" if listen in ALL_ADDRESSES else listen
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def allowed_hosts() -> set[str]:
    """Host names a request may carry in the hall: localhost and the laptop's addresses
    now, HALL_URL's host (a fixed address on a travel router) and the one address the hall
    listens on, if it was given one."""
    found = hall_address()
    hosts = set(LOCAL_NAMES) | set(found.addresses)
    if found.host:
        hosts.add(found.host)
    listen = getattr(settings, "HALL_LISTEN", "")
    if listen not in ALL_ADDRESSES:
        hosts.add(listen.casefold())
        if ":" in listen:
            hosts.add(f"[{listen.casefold()}]")
    return hosts


def is_laptop(remote_addr: str) -> bool:
    """Whether a request comes from the laptop itself: a loopback address or one of the
    laptop's own addresses. HALL_OTHER_DEVICES names loopback aliases that count as another
    device, so that tests can act as a phone without leaving the machine."""
    if remote_addr in getattr(settings, "HALL_OTHER_DEVICES", ()):
        return False
    try:
        address = ipaddress.ip_address(remote_addr)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    return remote_addr in hall_address().addresses


# ----- the address record in the data folder ------------------------------------------------


def _record_path() -> Path | None:
    folder = getattr(settings, "HALL_DATA_DIR", None)
    return Path(folder) / ADDRESS_FILE if folder else None


@dataclass(frozen=True)
class AddressChange:
    url: str
    previous: str
    since: object  # an aware datetime


def address_change() -> AddressChange | None:
    """The last change of the phones' address, if the address ever changed."""
    path = _record_path()
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        since = timezone.datetime.fromisoformat(data["since"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not data.get("previous"):
        return None
    return AddressChange(url=data.get("url", ""), previous=data["previous"], since=since)


def _record(url: str) -> None:
    path = _record_path()
    if path is None or not url:  # no network for a moment is no new address
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if data is not None and data.get("url") == url:
        return
    record = {
        "url": url,
        "previous": (data or {}).get("url", ""),
        "since": timezone.now().isoformat(),
    }
    temporary = path.with_suffix(".tmp")
    try:
        temporary.write_text(json.dumps(record), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # a full or read-only disk: the pages still show the address they found
