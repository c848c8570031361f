"""TLS session resumption for servers that close every connection (rskj: `Connection: close`).

rskj answers every HTTP request with `Connection: close` (Web3ResultHttpResponseHandler.java),
so each call opens a new connection. Python's TLS client does not resume sessions by itself:
each connection would run a full handshake (certificate chain checked again; one round trip
more on TLS 1.2). This context hands each new connection to a host the session of the last
one, so the handshake is an abbreviated one where the server allows it. bench/connection.py
measures the difference.
"""

from __future__ import annotations

import ssl
from typing import Any


class ResumingContext(ssl.SSLContext):
    """A client TLS context that offers each host the last session a connection to it got."""

    _last: dict[str, ssl.SSLObject]  # the newest connection to each host
    _sessions: dict[str, ssl.SSLSession]  # the newest resumable session of each host

    def wrap_bio(
        self,
        incoming: ssl.MemoryBIO,
        outgoing: ssl.MemoryBIO,
        server_side: bool = False,
        server_hostname: Any = None,
        session: ssl.SSLSession | None = None,
    ) -> ssl.SSLObject:
        """Make the TLS object of a new connection (asyncio's TLS calls this), resuming."""
        host = server_hostname if isinstance(server_hostname, str) and not server_side else None
        if host is not None:
            self._harvest(host)
            session = session or self._sessions.get(host)
        tls = super().wrap_bio(incoming, outgoing, server_side, server_hostname, session)
        if host is not None:
            self._last[host] = tls
        return tls

    def _harvest(self, host: str) -> None:
        """Keep the session of the newest connection to host.

        Once the server has given one (TLS 1.3 sends its ticket after the handshake, with the first
        answer).
        """
        last = self._last.get(host)
        try:
            session = None if last is None else last.session
        except (ValueError, ssl.SSLError):
            return
        if session is not None and (session.has_ticket or session.id):
            self._sessions[host] = session

    def resumed_from(self, host: str) -> ssl.SSLSession | None:
        """Return the session a new connection to host would offer."""
        self._harvest(host)
        return self._sessions.get(host)


def resume_sessions(context: ssl.SSLContext) -> ssl.SSLContext:
    """Make a client context resume each host's last session (the same context, its class swapped.

    Settings, certificates and verification stay as they were).
    """
    context.__class__ = ResumingContext
    resuming: Any = context
    resuming._last, resuming._sessions = {}, {}
    return context
