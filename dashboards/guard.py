"""The server's first check of every request, page and websocket alike: it must name, in its
Host header, a host the server was started for (ingest.club.serving.hosts_for). A page
elsewhere that points a name of its own at this machine (DNS rebinding) sends that name, and
is turned away before it reaches a route or the app's websocket.

Streamlit's own `server.allowedHosts` is set to the same names, but guards only its
websocket; this guards the sign-in routes too. A refusal is a line of the audit log, at most
one a minute for each address and host, so a stream of them cannot fill the disk.
"""

from __future__ import annotations

import threading
import time

from starlette.types import ASGIApp, Receive, Scope, Send

from dashboards.data import warehouse_path
from ingest.club import audit
from ingest.club.serving import host_of

QUIET = 60.0  # seconds between two audit lines for one address and host


class HostGuard:
    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self._said: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if host_of(header) in self.hosts:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        self._audit(client[0] if client else "unknown", header)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = (
            f"squire answers to {', '.join(sorted(self.hosts))} only, not "
            f"{header[:100]!r}: `squire up --host NAME` adds a name\n"
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 421 if header else 400,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _audit(self, address: str, header: str) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._said.get((address, header), -QUIET) < QUIET:
                return
            if len(self._said) > 10_000:
                self._said.clear()
            self._said[(address, header)] = now
        why = f"the Host header {header!r} is none of this server's" if header else "no Host header"
        audit.write(warehouse_path(), "anonymous", address, "request", {"host": header}, why)
