"""How the dashboards' server was started, as its pages and its routes read it: where it
listens, whether it is deliberately open, the host names it answers to, and the budgets that
keep one visitor from taking it.

`squire up` and `squire dashboard` decide it from their arguments and hand it to the server
in the environment (`SQUIRE_SERVING`), since the server is another program they become.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import socket
from dataclasses import asdict, dataclass, field

ENVIRONMENT = "SQUIRE_SERVING"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Budgets:
    """What one visitor may take of the server. Each is a setting of `squire up`."""

    heavy_per_hour: int = 6  # move analyses, rescores and experiments, together
    uploads_per_hour: int = 12
    drafts: int = 20  # open drafts a member may have at once
    upload_workers: int = 2  # uploads ingested at once on the server, a worker each


@dataclass(frozen=True)
class Serving:
    address: str = "127.0.0.1"
    port: int = 8501
    open: bool = False  # started `--open`: served beyond this machine with no sign-in needed
    hosts: tuple[str, ...] = ()  # the names the server answers to (the Host header's)
    budgets: Budgets = field(default_factory=Budgets)

    @property
    def loopback(self) -> bool:
        return is_loopback(self.address)

    def environment(self) -> str:
        return json.dumps(asdict(self))


def is_loopback(address: str) -> bool:
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def current() -> Serving:
    """The server's settings as it was started; a server started otherwise than by squire
    (an app test) is one on this machine alone."""
    text = os.environ.get(ENVIRONMENT)
    if not text:
        return Serving(hosts=LOOPBACK_NAMES)
    found = json.loads(text)
    return Serving(
        address=found["address"],
        port=found["port"],
        open=found["open"],
        hosts=tuple(found["hosts"]),
        budgets=Budgets(**found["budgets"]),
    )


def hosts_for(address: str, named: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The names a browser may reach a server listening on `address` by: this machine's own
    names always, and for an address that means all of this machine's (0.0.0.0, ::) its
    network's addresses and its host name, with the names given (a club's own, such as
    `squire.club.lan`)."""
    found = [*LOOPBACK_NAMES, *named]
    if address in ("", "0.0.0.0", "::"):
        name = socket.gethostname()
        found += [name, socket.getfqdn(name), *_addresses(name)]
    elif not is_loopback(address):
        found.append(address.strip("[]"))
    return tuple(dict.fromkeys(h.lower() for h in found if h))


def _addresses(name: str) -> list[str]:
    found = []
    with contextlib.suppress(OSError):
        found += [info[4][0] for info in socket.getaddrinfo(name, None)]
    try:  # the address this machine's network reaches it at (a datagram socket sends nothing)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    return [str(a).split("%")[0] for a in found]


def host_of(header: str) -> str:
    """The host a Host header names, its port dropped: `[::1]:8501` is `::1`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header
